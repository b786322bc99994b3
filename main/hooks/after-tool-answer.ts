import type { ProcessRecord } from '../core/model/process-record';
import type { HookAgentSpec } from '../core/hooks-setup/hook-agents';
import { listeningTcpPorts } from '../core/sampling/hook-sampler';
import { findLeftovers } from './find-leftovers';
import { afterToolOutput, leftoverGroups, leftoverNote, type KnownGroupId } from './leftover-note';
import { portNote } from './port-note';
import type { HookContext } from './run-hook';
import type { HookPayload } from './hook-event';

/** The tool call an after-tool answer reports on. */
export interface AfterToolCall {
  /** When the call began, in the unit of ProcessRecord.startKey. */
  startKey: number;
  /** The processes to look for leftovers in. */
  records: readonly ProcessRecord[];
  /** The session's agent: neither it nor its descendants are leftovers. */
  agentPid: number | null;
  /** Corral's own processes (the hook and its launchers), never reported. */
  self: ReadonlySet<number>;
}

/**
 * The answer to an after-tool event, the same for the one-shot hook and the running service: a note
 * on the call's leftovers and on the ports its output says are taken ('' for nothing). `call` is
 * asked only for a foreground call and returns null when there is no way to tell this call's
 * processes from older ones.
 */
export function answerAfterTool(
  event: string,
  payload: HookPayload,
  spec: HookAgentSpec,
  sessionId: string,
  portContext: HookContext,
  call: () => AfterToolCall | null,
  /** The TCP ports each leftover listens on (the running service's reader, else the tables'). */
  tcpPorts: (pids: number[]) => ReadonlyMap<number, number[]> = listeningTcpPorts,
  /** The ids a running Corral gave groups it saw first (the service's monitor); none one-shot. */
  knownGroupId?: KnownGroupId,
): string {
  // Whatever else is said, a port the output says is taken is named with its holder.
  const ports = portNote(payload, portContext);
  const noted = (note: string): string =>
    note === '' && ports === ''
      ? ''
      : afterToolOutput(event, [note, ports].filter((n) => n !== '').join('\n\n'));
  const input = (payload.tool_input ?? {}) as { run_in_background?: unknown; is_background?: unknown };
  // The agent runs background calls on purpose and keeps track of them itself (Claude Code's
  // run_in_background; Qwen Code's and Gemini CLI's is_background).
  if (input.run_in_background === true || input.is_background === true) return noted('');
  const found = call();
  if (!found) return noted('');
  const leftovers = findLeftovers(found.records, {
    spec,
    sessionId: sessionId === '' ? null : sessionId,
    startKey: found.startKey,
    agentPid: found.agentPid,
    self: found.self,
  });
  if (leftovers.length === 0) return noted('');
  const listening = tcpPorts(leftovers.map((r) => r.pid));
  const groups = leftoverGroups(leftovers, found.records, listening, knownGroupId);
  return noted(leftoverNote(groups));
}
