import { compileLinear } from '../analysis/linear-pattern';
import type { AgentSignatureConfig, Settings } from '../../../shared/model';
import {
  DEFAULT_QUIET_POLL_INTERVAL_MS,
  DEFAULT_SETTINGS,
  DEFAULT_SPAWN_STORM,
  NUMERIC_SETTINGS,
  type NumericSetting,
} from '../../../shared/settings-table';
import { validatePolicies, validatePolicyMode } from './validate-policies';
import { validateSpawnStorm } from './validate-spawn-storm';
import { isSecretEnv } from '../analysis/secret-env';

export interface ValidatedSettings {
  settings: Settings;
  /** One message per rejected field, naming the field; the default was used instead. */
  errors: string[];
}

type Json = unknown;

const isObject = (v: Json): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function numberIn(
  value: Json,
  field: string,
  { min, max, integer }: NumericSetting,
  fallback: number,
  errors: string[],
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    errors.push(`${field}: expected ${integer ? 'an integer' : 'a number'}, got ${JSON.stringify(value)}`);
    return fallback;
  }
  if (value < min || value > max) {
    errors.push(`${field}: ${value} is outside ${min}..${max}`);
    return fallback;
  }
  return value;
}

export function unknownKeys(
  obj: Record<string, Json>,
  known: string[],
  prefix: string,
  errors: string[],
): void {
  for (const key of Object.keys(obj)) if (!known.includes(key)) errors.push(`${prefix}${key}: unknown key`);
}

function stringList(value: Json, field: string, errors: string[], regex = false): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v.length === 0 || v.length > 500)) {
    errors.push(`${field}: expected a list of non-empty strings`);
    return undefined;
  }
  if (regex) {
    for (const pattern of value as string[]) {
      try {
        new RegExp(pattern);
      } catch (err) {
        errors.push(
          `${field}: invalid regular expression ${JSON.stringify(pattern)} (${(err as Error).message})`,
        );
        return undefined;
      }
      try {
        compileLinear(pattern);
      } catch (err) {
        errors.push(`${field}: ${(err as Error).message}`);
        return undefined;
      }
    }
  }
  return value as string[];
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function validateAgent(value: Json, field: string, errors: string[]): AgentSignatureConfig | null {
  if (!isObject(value)) {
    errors.push(`${field}: expected an object`);
    return null;
  }
  unknownKeys(
    value,
    [
      'name',
      'comm',
      'commandPatterns',
      'envMarkers',
      'pidEnv',
      'toolCallPatterns',
      'sessionEnv',
      'toolCallEnv',
    ],
    `${field}.`,
    errors,
  );
  if (typeof value.name !== 'string' || !/^[a-z0-9][a-z0-9._-]{0,63}$/.test(value.name)) {
    errors.push(`${field}.name: expected a lowercase name of letters, digits, '.', '_' or '-'`);
    return null;
  }
  const before = errors.length;
  const agent: AgentSignatureConfig = { name: value.name };
  const comm = stringList(value.comm, `${field}.comm`, errors);
  const commandPatterns = stringList(value.commandPatterns, `${field}.commandPatterns`, errors, true);
  const envMarkers = stringList(value.envMarkers, `${field}.envMarkers`, errors);
  const toolCallPatterns = stringList(value.toolCallPatterns, `${field}.toolCallPatterns`, errors, true);
  const sessionEnv = stringList(value.sessionEnv, `${field}.sessionEnv`, errors);
  if (sessionEnv) {
    if (sessionEnv.every((k) => ENV_NAME.test(k))) agent.sessionEnv = sessionEnv;
    else errors.push(`${field}.sessionEnv: expected environment variable names`);
  }
  if (value.toolCallEnv !== undefined) {
    if (typeof value.toolCallEnv === 'string' && ENV_NAME.test(value.toolCallEnv))
      agent.toolCallEnv = value.toolCallEnv;
    else errors.push(`${field}.toolCallEnv: expected an environment variable name`);
  }
  if (comm) agent.comm = comm;
  if (commandPatterns) agent.commandPatterns = commandPatterns;
  if (envMarkers) agent.envMarkers = envMarkers;
  if (toolCallPatterns) agent.toolCallPatterns = toolCallPatterns;
  if (value.pidEnv !== undefined) {
    if (typeof value.pidEnv === 'string' && ENV_NAME.test(value.pidEnv)) agent.pidEnv = value.pidEnv;
    else errors.push(`${field}.pidEnv: expected an environment variable name`);
  }
  const secrets = [
    ...(agent.envMarkers ?? []),
    ...(agent.sessionEnv ?? []),
    agent.toolCallEnv,
    agent.pidEnv,
  ].filter((k): k is string => k !== undefined && isSecretEnv(k));
  if (secrets.length > 0)
    errors.push(`${field}: ${secrets.join(', ')} look like secrets; Corral never reads them from a process`);
  if (errors.length > before) return null;
  if (!agent.comm && !agent.commandPatterns && !agent.envMarkers && !agent.toolCallPatterns) {
    errors.push(`${field}: needs at least one of comm, commandPatterns, envMarkers, toolCallPatterns`);
    return null;
  }
  return agent;
}

/** Checks a parsed config document field by field; every bad field falls back to its default. */
export function validateSettings(input: Json, base: Settings = DEFAULT_SETTINGS): ValidatedSettings {
  const errors: string[] = [];
  if (!isObject(input)) {
    return { settings: base, errors: ['(top level): expected a JSON object'] };
  }
  unknownKeys(
    input,
    [
      'agents',
      'pollIntervalMs',
      'quietPollIntervalMs',
      'runaway',
      'memory',
      'spawnStorm',
      'teardown',
      'notifications',
      'provenance',
      'updates',
      'policyMode',
      'policies',
    ],
    '',
    errors,
  );

  const pollIntervalMs = numberIn(
    input.pollIntervalMs,
    'pollIntervalMs',
    NUMERIC_SETTINGS.pollIntervalMs,
    base.pollIntervalMs,
    errors,
  );

  const quietPollIntervalMs = numberIn(
    input.quietPollIntervalMs,
    'quietPollIntervalMs',
    NUMERIC_SETTINGS.quietPollIntervalMs,
    base.quietPollIntervalMs ?? DEFAULT_QUIET_POLL_INTERVAL_MS,
    errors,
  );

  const runaway = { ...base.runaway };
  if (input.runaway !== undefined) {
    if (!isObject(input.runaway)) errors.push('runaway: expected an object');
    else {
      unknownKeys(input.runaway, ['cpuPercent', 'windowSeconds'], 'runaway.', errors);
      runaway.cpuPercent = numberIn(
        input.runaway.cpuPercent,
        'runaway.cpuPercent',
        NUMERIC_SETTINGS.cpuPercent,
        runaway.cpuPercent,
        errors,
      );
      runaway.windowSeconds = numberIn(
        input.runaway.windowSeconds,
        'runaway.windowSeconds',
        NUMERIC_SETTINGS.windowSeconds,
        runaway.windowSeconds,
        errors,
      );
    }
  }

  const memory = { ...base.memory };
  if (input.memory !== undefined) {
    if (!isObject(input.memory)) errors.push('memory: expected an object');
    else {
      unknownKeys(input.memory, ['groupMegabytes', 'windowSeconds'], 'memory.', errors);
      memory.groupMegabytes = numberIn(
        input.memory.groupMegabytes,
        'memory.groupMegabytes',
        NUMERIC_SETTINGS.groupMegabytes,
        memory.groupMegabytes,
        errors,
      );
      memory.windowSeconds = numberIn(
        input.memory.windowSeconds,
        'memory.windowSeconds',
        NUMERIC_SETTINGS.memoryWindowSeconds,
        memory.windowSeconds,
        errors,
      );
    }
  }

  const spawnStorm = validateSpawnStorm(input.spawnStorm, base.spawnStorm ?? DEFAULT_SPAWN_STORM, errors);

  const policyMode =
    input.policyMode === undefined
      ? base.policyMode
      : (validatePolicyMode(input.policyMode, errors) ?? base.policyMode);
  const policies =
    input.policies === undefined
      ? base.policies
      : (validatePolicies(input.policies, errors) ?? base.policies);

  const teardown = { ...base.teardown };
  if (input.teardown !== undefined) {
    if (!isObject(input.teardown)) errors.push('teardown: expected an object');
    else {
      unknownKeys(input.teardown, ['graceMs'], 'teardown.', errors);
      teardown.graceMs = numberIn(
        input.teardown.graceMs,
        'teardown.graceMs',
        NUMERIC_SETTINGS.graceMs,
        teardown.graceMs,
        errors,
      );
    }
  }

  const notifications = { ...base.notifications };
  if (input.notifications !== undefined) {
    if (typeof input.notifications === 'boolean') notifications.enabled = input.notifications;
    else if (!isObject(input.notifications)) errors.push('notifications: expected an object or a boolean');
    else {
      unknownKeys(input.notifications, ['enabled', 'pausedUntil'], 'notifications.', errors);
      const { enabled, pausedUntil } = input.notifications;
      if (enabled !== undefined) {
        if (typeof enabled === 'boolean') notifications.enabled = enabled;
        else errors.push(`notifications.enabled: expected true or false, got ${JSON.stringify(enabled)}`);
      }
      if (pausedUntil !== undefined) {
        if (
          pausedUntil === null ||
          (typeof pausedUntil === 'number' && Number.isFinite(pausedUntil) && pausedUntil >= 0)
        )
          notifications.pausedUntil = pausedUntil;
        else errors.push('notifications.pausedUntil: expected a time in ms since epoch, or null');
      }
    }
  }

  const provenance = { transcripts: base.provenance?.transcripts ?? true };
  if (input.provenance !== undefined) {
    if (!isObject(input.provenance)) errors.push('provenance: expected an object');
    else {
      unknownKeys(input.provenance, ['transcripts'], 'provenance.', errors);
      const { transcripts } = input.provenance;
      if (transcripts !== undefined) {
        if (typeof transcripts === 'boolean') provenance.transcripts = transcripts;
        else
          errors.push(`provenance.transcripts: expected true or false, got ${JSON.stringify(transcripts)}`);
      }
    }
  }

  const updates = { enabled: base.updates?.enabled ?? true };
  if (input.updates !== undefined) {
    if (!isObject(input.updates)) errors.push('updates: expected an object');
    else {
      unknownKeys(input.updates, ['enabled'], 'updates.', errors);
      const { enabled } = input.updates;
      if (enabled !== undefined) {
        if (typeof enabled === 'boolean') updates.enabled = enabled;
        else errors.push(`updates.enabled: expected true or false, got ${JSON.stringify(enabled)}`);
      }
    }
  }

  let agents = base.agents;
  if (input.agents !== undefined) {
    if (!Array.isArray(input.agents)) errors.push('agents: expected a list of agent signatures');
    else if (input.agents.length > 200)
      errors.push(`agents: at most 200 signatures, got ${input.agents.length}`);
    else {
      agents = input.agents
        .map((a, i) => validateAgent(a, `agents[${i}]`, errors))
        .filter((a): a is AgentSignatureConfig => a !== null);
    }
  }

  return {
    settings: {
      pollIntervalMs,
      quietPollIntervalMs,
      runaway,
      memory,
      spawnStorm,
      teardown,
      notifications,
      agents,
      provenance,
      updates,
      policyMode,
      policies,
    },
    errors,
  };
}
