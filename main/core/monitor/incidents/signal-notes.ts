import type { MonitorState } from '../table/monitor-state';

/**
 * Records that a user asked to stop this group, and a signal sent, on its members' timelines and as a
 * `signal-sent` event. False when the group is not known.
 */
export function noteSignalOn(
  state: MonitorState,
  groupId: string,
  signal: { signal: string; target: string; result: string; at: number; by: string },
): boolean {
  const group = state.groups.get(groupId);
  if (!group) return false;
  const { at, target, result, by } = signal;
  group.stopRequestedAt ??= at;
  for (const id of group.live) {
    group.members
      .get(id)
      ?.markers.push({ at, kind: 'signal', label: `${signal.signal} → ${target} (${result})`, by });
  }
  state.pendingEvents.push({
    type: 'signal-sent',
    at,
    groupId,
    pid: group.pgid,
    pgid: group.pgid,
    sid: group.sid,
    agent: group.agent,
    detail: { signal: signal.signal, target, result, by },
  });
  return true;
}
