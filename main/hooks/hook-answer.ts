import type { ProcessRecord } from '../core/model/process-record';
import type { HookAgent, HookAgentSpec } from '../core/hooks-setup/hook-agents';
import type { HookSampler } from '../core/sampling/hook-sampler';
import { answerAfterTool, type AfterToolCall } from './after-tool-answer';
import { callIdOf, noteAgentTasks, noteSessionEnded, readHookEvent, type HookPayload } from './hook-event';
import type { KnownGroupId } from './leftover-note';
import type { PidCounterReadings } from './pid-counter-readings';
import { callStartFromDuration } from './hook-call-start';
import { toolDurationMs } from './tool-duration';
import { callRecords } from './pids-since-start';
import { recordToolCallStart, takeToolCallStart } from './tool-call-starts';

/** What a running Corral needs to answer a hook request without a hook process of its own. */
export interface ServiceHookContext {
  dataDir: string;
  sampler: HookSampler;
  /** The kernel clock now, in the unit of ProcessRecord.startKey (clock ticks since boot). */
  nowTicks: number;
  /** Milliseconds per clock tick. */
  tickMs: number;
  pidMax: number;
  now: number;
  /** Is this process an agent (the matcher's agentOf)? */
  isAgent: (r: ProcessRecord) => boolean;
  /**
   * The service's memory of each session's last after-tool answer (nowTicks then), by
   * `<agent>\0<session>`: a call began after the session's previous one was answered.
   */
  lastAnswered: Map<string, number>;
  /** The pid counter as read at earlier answers: where a walk down for a call's processes may stop. */
  pidReadings: PidCounterReadings;
  /** The TCP ports each of these processes listens on (listeningTcpPorts, with the service's reader). */
  tcpPorts?: (pids: number[]) => ReadonlyMap<number, number[]>;
  /** The id the service's monitor gave a group it saw first (Monitor.knownGroupId). */
  knownGroupId?: KnownGroupId;
}

interface Payload extends HookPayload {
  duration_ms?: unknown;
  transcript_path?: unknown;
  tool_use_id?: unknown;
}

function carriesSession(r: ProcessRecord, spec: HookAgentSpec, sessionId: string): boolean {
  if (!spec.toolCallsCarrySession) return spec.agentMarkers.some((k) => r.markers[k] !== undefined);
  return spec.sessionMarkers.some((k) => r.markers[k] === sessionId);
}

/**
 * The agent of the session, by lineage: from a process of the session, the nearest ancestor that no
 * longer carries the session's marker is the agent when it is one (the tool call's shell is its child);
 * when it is not (pid 1 or a subreaper took an orphan in), keep looking from the next process.
 */
export function agentPidByLineage(
  records: readonly ProcessRecord[],
  sampler: HookSampler,
  spec: HookAgentSpec,
  sessionId: string,
  isAgent: (r: ProcessRecord) => boolean,
): number | null {
  const byPid = new Map(records.map((r) => [r.pid, r]));
  for (const start of records) {
    if (!carriesSession(start, spec, sessionId)) continue;
    let cur: ProcessRecord | undefined = start;
    for (let hops = 0; cur && hops < 64 && cur.ppid > 1; hops++) {
      const parent: ProcessRecord | undefined = byPid.get(cur.ppid) ?? sampler.sampleSome([cur.ppid])[0];
      if (!parent) break;
      if (!carriesSession(parent, spec, sessionId)) {
        if (isAgent(parent)) return parent.pid;
        break;
      }
      cur = parent;
    }
  }
  return null;
}

/** The after-tool call's start in clock ticks: the before-tool record when there is one, else from how long the tool ran. */
function callStart(
  agent: HookAgent,
  ctx: ServiceHookContext,
  recorded: number | null,
  payload: Payload,
  previous: number | undefined,
): number | null {
  if (recorded !== null) return recorded;
  return callStartFromDuration(ctx.nowTicks, ctx.tickMs, toolDurationMs(agent, payload, ctx.now), previous);
}

/**
 * The service's answer to one hook event: what the hook prints ('' for nothing), computed with the
 * very functions the one-shot hook uses (findLeftovers, leftoverGroups, leftoverNote), so the note is
 * the same. Throws on internal errors; the server answers those with an empty 200.
 */
export function answerHook(
  agent: HookAgent,
  event: string,
  body: string,
  ctx: ServiceHookContext,
  /** The command hook client and its launcher (x-corral-client), never reported. */
  client: readonly number[] = [],
): string {
  const { spec, eventSpec, payload, sessionId } = readHookEvent<Payload>(agent, event, body);
  if (eventSpec.role === 'session-end') {
    ctx.lastAnswered.delete(`${agent}\0${sessionId}`);
    noteSessionEnded(ctx.dataDir, agent, sessionId, ctx.now, payload);
    return '';
  }
  if (eventSpec.role === 'turn-end') {
    noteAgentTasks(ctx.dataDir, agent, sessionId, ctx.now, payload);
    return '';
  }
  const key = { agent, sessionId, callId: callIdOf(payload) };
  if (eventSpec.role === 'before-tool') {
    const pidCursor = ctx.sampler.newPidsSince?.(null).cursor ?? null;
    recordToolCallStart(ctx.dataDir, key, { startKey: ctx.nowTicks, pidCursor, at: ctx.now });
    return '';
  }

  const recorded = takeToolCallStart(ctx.dataDir, key);
  const portContext = { dataDir: ctx.dataDir, sampler: ctx.sampler, pid: process.pid, now: ctx.now };
  const findCall = (): AfterToolCall | null => {
    const sessionKey = `${agent}\0${sessionId}`;
    const startKey = callStart(
      agent,
      ctx,
      recorded?.startKey ?? null,
      payload,
      ctx.lastAnswered.get(sessionKey),
    );
    if (startKey === null) return null;
    if (sessionId !== '') {
      // Sessions that never said they ended (a killed agent) are forgotten in bulk, not kept forever.
      if (ctx.lastAnswered.size >= 10_000) ctx.lastAnswered.clear();
      ctx.lastAnswered.set(sessionKey, ctx.nowTicks);
    }
    const floor = ctx.pidReadings.before(startKey, ctx.nowTicks);
    const records = callRecords(ctx.sampler, recorded?.pidCursor, startKey, ctx.pidMax, floor);
    const agentPid = agentPidByLineage(records, ctx.sampler, spec, sessionId, ctx.isAgent);
    return { startKey, records, agentPid, self: new Set(client) };
  };
  return answerAfterTool(
    event,
    payload,
    spec,
    sessionId,
    portContext,
    findCall,
    ctx.tcpPorts,
    ctx.knownGroupId,
  );
}
