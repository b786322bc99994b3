import type { ProcessRecord } from '../core/model/process-record';
import type { HookSampler } from '../core/sampling/hook-sampler';
import type { HookAgent } from '../core/hooks-setup/hook-agents';
import { CORRAL_SCRIPT } from '../core/hooks-setup/hook-command';
import { answerAfterTool } from './after-tool-answer';
import { callIdOf, noteAgentTasks, noteSessionEnded, readHookEvent, type HookPayload } from './hook-event';
import { callStartFromDuration } from './hook-call-start';
import { toolDurationMs } from './tool-duration';
import { callRecords } from './pids-since-start';
import {
  recordSessionAnswered,
  recordToolCallStart,
  sessionAnswered,
  takeToolCallStart,
} from './tool-call-starts';
import { isShellName } from '../../shared/shells';

export interface HookContext {
  dataDir: string;
  sampler: HookSampler;
  /** The hook process's own pid. */
  pid: number;
  now: number;
}

interface Payload extends HookPayload {
  hook_event_name?: unknown;
  duration_ms?: unknown;
  transcript_path?: unknown;
  tool_use_id?: unknown;
}

/** What may stand between an agent and its hook besides a shell. */
const LAUNCHERS = new Set(['env', 'timeout']);

const CORRAL_SCRIPT_AT_END = new RegExp(`${CORRAL_SCRIPT}$`);
/**
 * The hook process, its launchers (the shell the agent ran the hook command in, bin/corral.mjs when
 * run from a checkout) and the agent: the nearest ancestor that is neither a shell nor Corral.
 */
function selfAndAgent(sampler: HookSampler, pid: number): { self: Set<number>; agentPid: number | null } {
  const self = new Set<number>([pid]);
  let cur = sampler.sampleSome([pid])[0];
  for (let hops = 0; cur && cur.ppid > 1 && hops < 64; hops++) {
    const parent: ProcessRecord | undefined = sampler.sampleSome([cur.ppid])[0];
    if (!parent) break;
    const isCorral = parent.argv.some((a) => CORRAL_SCRIPT_AT_END.test(a));
    if (!isShellName(parent.name) && !LAUNCHERS.has(parent.name) && !isCorral)
      return { self, agentPid: parent.pid };
    self.add(parent.pid);
    cur = parent;
  }
  return { self, agentPid: null };
}

/**
 * Runs one hook event and returns what to print on stdout ('' for nothing). Throws on internal
 * errors; the command wraps it so the agent never sees a failure.
 */
export function runHook(agent: HookAgent, event: string, stdin: string, ctx: HookContext): string {
  const { spec, eventSpec, payload, sessionId } = readHookEvent<Payload>(agent, event, stdin);
  if (eventSpec.role === 'session-end') {
    noteSessionEnded(ctx.dataDir, agent, sessionId, ctx.now, payload);
    return '';
  }
  if (eventSpec.role === 'turn-end') {
    noteAgentTasks(ctx.dataDir, agent, sessionId, ctx.now, payload);
    return '';
  }

  const key = { agent, sessionId, callId: callIdOf(payload) };
  if (eventSpec.role === 'before-tool') {
    const own = ctx.sampler.sampleSome([ctx.pid])[0];
    if (!own) throw new Error('cannot read the hook process itself');
    const pidCursor = ctx.sampler.newPidsSince ? ctx.sampler.newPidsSince(null).cursor : null;
    recordToolCallStart(ctx.dataDir, key, { startKey: own.startKey, pidCursor, at: ctx.now });
    return '';
  }

  const start = takeToolCallStart(ctx.dataDir, key);
  let bounds = false;
  const answer = answerAfterTool(event, payload, spec, sessionId, ctx, () => {
    const fromDuration = start ? null : startFromDuration(agent, sessionId, payload, ctx);
    const startKey = start?.startKey ?? fromDuration;
    // Without the before-tool record or a duration there is no way to tell this call's processes from older ones.
    if (startKey === null) return null;
    bounds = fromDuration !== null && sessionId !== '';
    // As the service reads them: without a before-tool record, only the pids allocated since the call began.
    const records = callRecords(ctx.sampler, start?.pidCursor, startKey, ctx.sampler.pidMax?.() ?? null);
    return { startKey, records, ...selfAndAgent(ctx.sampler, ctx.pid) };
  });
  // The session's next call began after this answer: what started before it is this call's or older.
  if (bounds) recordSessionAnswered(ctx.dataDir, agent, sessionId, ctx.sampler.nowKey!());
  return answer;
}

/**
 * A call with no before-tool record (Claude Code's and Codex's command hooks are PostToolUse alone): its
 * start from how long the tool ran (toolDurationMs), counted back from this hook's own start (the agent
 * ran it as the tool ended), and never before the session's previous answer.
 */
function startFromDuration(
  agent: HookAgent,
  sessionId: string,
  payload: Payload,
  ctx: HookContext,
): number | null {
  const unitMs = ctx.sampler.startKeyMs;
  const own = ctx.sampler.sampleSome([ctx.pid])[0];
  if (unitMs === undefined || !ctx.sampler.nowKey || !own) return null;
  const previous = sessionId === '' ? undefined : sessionAnswered(ctx.dataDir, agent, sessionId);
  return callStartFromDuration(own.startKey, unitMs, toolDurationMs(agent, payload, ctx.now), previous);
}
