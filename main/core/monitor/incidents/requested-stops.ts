import type { StopRequestSource } from './monitor-inputs';
import type { MonitorState } from '../table/monitor-state';
import type { TrackedGroup } from '../table/tracked';

/** Who asked for a stop recorded in another process, in words: "corral kill (pid 4242)". */
export const requesterWords = (via: string | undefined, pid: number): string =>
  `${via ?? 'another Corral'} (pid ${pid})`;

/**
 * Brings onto a group's timeline the signals another command (`corral kill`) sent it, which it
 * recorded beside its stop request: each becomes a `signal` marker naming who sent it, on the members
 * the request named, and a `signal-sent` event. A signal is brought over once. Returns whether
 * anything was added.
 */
export function importRequestedStops(
  state: MonitorState,
  group: TrackedGroup,
  now: number,
  stopRequestsFor: StopRequestSource,
): boolean {
  const members = [...group.members.values()].map((p) => p.record);
  const requests = stopRequestsFor({ id: group.id, pgid: group.pgid, members }, group.startedAt, now);
  let added = false;
  for (const request of requests) {
    const by = requesterWords(request.via, request.by);
    (request.signals ?? []).forEach((s, index) => {
      const key = `${request.by}:${request.at}:${index}`;
      const imported = (group.importedStops ??= new Set());
      if (imported.has(key)) return;
      imported.add(key);
      added = true;
      group.stopRequestedAt ??= request.at;
      // On the processes the request named (the group just before its first signal): no comparison
      // of this monitor's poll times with the other command's clock.
      for (const p of group.members.values()) {
        const named = request.members.some((m) => m.pid === p.record.pid && m.startKey === p.record.startKey);
        if (named)
          p.markers.push({ at: s.at, kind: 'signal', label: `${s.signal} → ${s.target} (${s.result})`, by });
      }
      state.pendingEvents.push({
        type: 'signal-sent',
        at: s.at,
        groupId: group.id,
        pid: group.pgid,
        pgid: group.pgid,
        sid: group.sid,
        agent: group.agent,
        detail: { signal: s.signal, target: s.target, result: s.result, by },
      });
    });
  }
  return added;
}
