// The single gate for requests from the renderer (Electron IPC) and from browsers (serve WebSocket).
// Everything that reaches the service has passed through here.
import { HOOK_AGENT_NAMES } from '../../shared/hooks';
import { NUMERIC_SETTINGS } from '../../shared/settings-table';
import { MAX_KEEP_MS } from '../../shared/words/keep-duration';
import { REQUEST_CHANNELS, type RequestChannel, type RequestOf } from '../../shared/contract';
import { INCIDENT_FLAGS, MAX_INCIDENTS_LIMIT, MAX_INCIDENTS_OFFSET } from '../../shared/incident-filter';
import { MAX_FILTER_TEXT_LENGTH, MAX_PAYLOAD_BYTES, MAX_SESSION_GROUPS } from './limits';
import { sessionIdProblem } from '../../shared/session-id';
import { arrayOf, bool, finiteNumber, groupId, nullable, object, str, type Check } from './schema-checks';

/** How many rows a list request may ask for at most. */
const listLimit = finiteNumber({ min: 1, max: MAX_INCIDENTS_LIMIT, integer: true });

export type ValidRequest = {
  [C in RequestChannel]: { ok: true; channel: C; payload: RequestOf<C> };
}[RequestChannel];
export type RequestValidation = ValidRequest | { ok: false; error: string };

/** A session id, or a prefix of one of at least 8 characters (shared/session-id.ts). */
const sessionIdCheck: Check = (value, path) => {
  if (typeof value !== 'string') return `${path} must be a string session id`;
  const problem = sessionIdProblem(value);
  return problem === null ? null : `${path} ${problem}`;
};

const boundedText =
  (max: number): Check =>
  (value, path) =>
    typeof value === 'string' && value.length <= max
      ? null
      : `${path} must be a string of at most ${max} characters`;
const boundedNote = boundedText(200);

const noPayload: Check = (value, path) =>
  value === undefined || value === null ? null : `${path} must be empty for this channel`;

const agentSignature = object(
  { name: str },
  {
    comm: arrayOf(str, 64),
    commandPatterns: arrayOf(str, 64),
    envMarkers: arrayOf(str, 64),
    pidEnv: str,
    toolCallPatterns: arrayOf(str, 64),
    sessionEnv: arrayOf(str, 64),
    toolCallEnv: str,
  },
);

const oneOf =
  (...allowed: string[]): Check =>
  (value, path) =>
    allowed.includes(value as string) ? null : `${path} must be one of ${allowed.join(', ')}`;

const time = finiteNumber({ min: 0, integer: true });
const incidentList = object(
  {},
  {
    limit: listLimit,
    offset: finiteNumber({ min: 0, max: MAX_INCIDENTS_OFFSET, integer: true }),
    agent: boundedText(MAX_FILTER_TEXT_LENGTH),
    sessionId: sessionIdCheck,
    project: boundedText(MAX_FILTER_TEXT_LENGTH),
    flag: oneOf(...INCIDENT_FLAGS),
    sinceMs: time,
    untilMs: time,
  },
);

// The core validates each rule fully (and names the rule in its errors); this bounds the shape.
const policyRule = object(
  {
    name: str,
    match: object(
      {},
      {
        agents: arrayOf(str, 64),
        flags: arrayOf(str, 16),
        minAgeSeconds: finiteNumber({ min: 0 }),
        minCpuSeconds: finiteNumber({ min: 0 }),
        minMemoryMegabytes: finiteNumber({ min: 0 }),
        sessionEnded: bool,
        commandPatterns: arrayOf(str, 64),
        ports: arrayOf(finiteNumber({ min: 1, max: 65_535, integer: true }), 64),
      },
    ),
    action: oneOf('notify', 'stop'),
  },
  { graceMs: finiteNumber(NUMERIC_SETTINGS.graceMs), enabled: bool },
);

const settingsPatch = object(
  {},
  {
    pollIntervalMs: finiteNumber(NUMERIC_SETTINGS.pollIntervalMs),
    quietPollIntervalMs: finiteNumber(NUMERIC_SETTINGS.quietPollIntervalMs),
    runaway: object({
      cpuPercent: finiteNumber(NUMERIC_SETTINGS.cpuPercent),
      windowSeconds: finiteNumber(NUMERIC_SETTINGS.windowSeconds),
    }),
    memory: object({
      groupMegabytes: finiteNumber(NUMERIC_SETTINGS.groupMegabytes),
      windowSeconds: finiteNumber(NUMERIC_SETTINGS.memoryWindowSeconds),
    }),
    spawnStorm: object({
      birthsPerMinute: finiteNumber(NUMERIC_SETTINGS.birthsPerMinute),
      repeatsPerMinute: finiteNumber(NUMERIC_SETTINGS.repeatsPerMinute),
      windowSeconds: finiteNumber(NUMERIC_SETTINGS.spawnWindowSeconds),
      members: finiteNumber(NUMERIC_SETTINGS.spawnMembers),
    }),
    policyMode: oneOf('observe', 'enforce'),
    policies: arrayOf(policyRule, 100),
    teardown: object({ graceMs: finiteNumber(NUMERIC_SETTINGS.graceMs) }),
    notifications: object({ enabled: bool, pausedUntil: nullable(finiteNumber({ min: 0 })) }),
    agents: arrayOf(agentSignature, 256),
    provenance: object({ transcripts: bool }),
  },
);

const PAYLOAD_CHECKS: Record<RequestChannel, Check> = {
  'snapshot:get': noPayload,
  'timeline:get': object({ groupId }, { sinceMs: finiteNumber({ min: 0 }) }),
  'group:stop': object({ groupId }, { orphansOnly: bool, withEscaped: bool, dryRun: bool }),
  'session:stop': object(
    { sessionId: sessionIdCheck },
    { groupIds: arrayOf(groupId, MAX_SESSION_GROUPS), dryRun: bool },
  ),
  'group:keep': object(
    { groupId },
    { forMs: finiteNumber({ min: 60_000, max: MAX_KEEP_MS, integer: true }), note: boundedNote },
  ),
  'group:unkeep': object({ groupId }),
  // No payload: the newest incidents, as the service's default says.
  'incidents:list': (value, path) => (value === undefined ? null : incidentList(value, path)),
  'settings:get': noPayload,
  'settings:set': settingsPatch,
  'config:problems': noPayload,
  'hooks:status': noPayload,
  'hooks:endpoint': noPayload,
  'hooks:install': object({ agent: oneOf(...HOOK_AGENT_NAMES), dryRun: bool }),
  'policies:journal': object(
    {},
    {
      sinceMs: finiteNumber({ min: 0 }),
      limit: listLimit,
    },
  ),
};

function isRequestChannel(channel: unknown): channel is RequestChannel {
  return typeof channel === 'string' && (REQUEST_CHANNELS as readonly string[]).includes(channel);
}

function payloadSizeError(payload: unknown): string | null {
  if (payload === undefined) return null;
  let text: string;
  try {
    text = JSON.stringify(payload);
  } catch {
    return 'payload must be plain JSON data (no cycles, no BigInt)';
  }
  const bytes = Buffer.byteLength(text ?? '', 'utf8');
  return bytes > MAX_PAYLOAD_BYTES ? `payload is ${bytes} bytes; the limit is ${MAX_PAYLOAD_BYTES}` : null;
}

/** A fresh copy with only the fields the checks allowed, so nothing unchecked rides along. */
function copy(payload: unknown): unknown {
  return payload === undefined || payload === null ? undefined : structuredClone(payload);
}

export function validateRequest(channel: unknown, payload: unknown): RequestValidation {
  if (!isRequestChannel(channel)) {
    const shown = typeof channel === 'string' ? `'${channel.slice(0, 80)}'` : typeof channel;
    return { ok: false, error: `unknown channel ${shown}; expected one of ${REQUEST_CHANNELS.join(', ')}` };
  }
  const sizeError = payloadSizeError(payload);
  if (sizeError) return { ok: false, error: `${channel}: ${sizeError}` };
  const error = PAYLOAD_CHECKS[channel](payload, 'payload');
  if (error) return { ok: false, error: `${channel}: ${error}` };
  return { ok: true, channel, payload: copy(payload) } as ValidRequest;
}
