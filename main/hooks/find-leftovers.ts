import type { ProcessRecord } from '../core/model/process-record';
import type { HookAgentSpec } from '../core/hooks-setup/hook-agents';
import { recordInExecWindow } from '../core/analysis/exec-window';

export interface LeftoverQuery {
  spec: HookAgentSpec;
  /** The session id from the hook payload (null when the payload had none). */
  sessionId: string | null;
  /** The tool call's start stamp (see tool-call-starts.ts). */
  startKey: number;
  /** The agent's own pid: its live descendants (other hooks, running tool calls) are not leftovers. */
  agentPid: number | null;
  /** The hook process and its launchers (never reported). */
  self: ReadonlySet<number>;
}

/**
 * Does this process belong to the session? A process carrying a session-id marker must carry this
 * session's id; an agent without per-session markers (Gemini CLI) is matched by its agent marker.
 */
function inSession(r: ProcessRecord, q: LeftoverQuery): boolean {
  let sawSessionMarker = false;
  for (const key of q.spec.sessionMarkers) {
    const v = r.markers[key];
    if (v === undefined) continue;
    sawSessionMarker = true;
    if (q.sessionId !== null && v === q.sessionId) return true;
  }
  if (sawSessionMarker) return false;
  return q.spec.agentMarkers.some((key) => r.markers[key] !== undefined);
}

/**
 * A process the reader still found inside execve's window (recordInExecWindow) shows no markers, so they
 * cannot prove it the session's. It started since the call, though, and is counted the session's when
 * its lineage says so: an ancestor among the records carries the session's marker (a leftover starting
 * a program), or a process of its group does (a process joins a group only within its own session,
 * setpgid(2), so the group is the call's). Anything else new and unreadable (another terminal's command
 * starting at that moment) is not named: the note invites stopping what it names.
 */
function vouchedForByLineage(
  r: ProcessRecord,
  byPid: ReadonlyMap<number, ProcessRecord>,
  sessionGroups: ReadonlySet<number>,
  q: LeftoverQuery,
): boolean {
  if (sessionGroups.has(r.pgid)) return true;
  let cur = byPid.get(r.ppid);
  for (let hops = 0; cur && hops < 64; hops++) {
    if (inSession(cur, q)) return true;
    cur = byPid.get(cur.ppid);
  }
  return false;
}

/**
 * Pure: the processes a finished tool call left running, among `records` (the pids allocated since
 * the call began, or the whole table). A leftover started at or after the tool call began, carries
 * the session's marker, and is not (a descendant of) the agent or the hook itself. The tool call's
 * shell has exited by the time the after-tool hook runs, so its leftovers were reparented away from
 * the agent; anything still under the agent is the agent's own business (a background task, a
 * sibling hook, another tool call running in parallel).
 */
export function findLeftovers(records: readonly ProcessRecord[], q: LeftoverQuery): ProcessRecord[] {
  const byPid = new Map<number, ProcessRecord>();
  for (const r of records) byPid.set(r.pid, r);
  const underAgentOrSelf = (r: ProcessRecord): boolean => {
    let cur: ProcessRecord | undefined = r;
    for (let hops = 0; cur && hops < 4096; hops++) {
      if (q.self.has(cur.pid) || cur.pid === q.agentPid) return true;
      if (q.self.has(cur.ppid) || cur.ppid === q.agentPid) return true;
      cur = byPid.get(cur.ppid);
    }
    return false;
  };
  const sessionGroups = new Set(records.filter((r) => inSession(r, q)).map((r) => r.pgid));
  const ofSession = (r: ProcessRecord): boolean =>
    inSession(r, q) || (recordInExecWindow(r) && vouchedForByLineage(r, byPid, sessionGroups, q));
  return records
    .filter(
      (r) =>
        r.state !== 'Z' && r.startKey >= q.startKey && r.pgid > 1 && ofSession(r) && !underAgentOrSelf(r),
    )
    .sort((a, b) => a.startKey - b.startKey || a.pid - b.pid);
}
