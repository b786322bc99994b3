import type { GroupView } from '../../../shared/model';
import type { Monitor } from './monitor';
import type { TrackedProcess } from './tracked';

/**
 * Views of the groups no agent owns, kept while nothing they are built from changed. Between sweeps
 * the monitor re-reads no such process, so with a page open on "Everything" almost every group would
 * be built again, and compared again, only to come out the same. A view is reused when its members
 * are the same tracked processes whose records hold the same values (compared field by field, so a
 * sweep that re-reads an idle process changes nothing) with the same CPU reading and flags' inputs. Agents' groups are always built afresh: their processes are
 * re-read each poll, and provenance writes into their process views.
 */
export class GroupViewCache {
  private entries = new Map<number, { parts: unknown[]; view: GroupView }>();

  /** A copy of the kept view of `pgid` (its process list shared, never to be mutated), or null. */
  reuse(pgid: number, parts: unknown[] | null): GroupView | null {
    if (parts === null) return null;
    const entry = this.entries.get(pgid);
    if (!entry || entry.parts.length !== parts.length) return null;
    for (let i = 0; i < parts.length; i++) if (entry.parts[i] !== parts[i]) return null;
    return { ...entry.view };
  }

  /** Keeps the views just built for the next time, and forgets groups no longer seen. */
  keep(built: readonly GroupView[], parts: ReadonlyMap<number, unknown[] | null>): GroupView[] {
    for (const pgid of this.entries.keys()) if (!parts.has(pgid)) this.entries.delete(pgid);
    return built.map((view) => {
      const key = parts.get(view.pgid);
      if (key === null || key === undefined) {
        this.entries.delete(view.pgid);
        return view;
      }
      this.entries.set(view.pgid, { parts: key, view });
      return { ...view };
    });
  }
}

/** What a non-agent group's view is built from; null when an agent owns any member (not cached). */
export function viewInputs(
  monitor: Monitor,
  pgid: number,
  members: readonly TrackedProcess[],
): unknown[] | null {
  if (members.some((p) => p.attribution !== null)) return null;
  const tracked = monitor.liveGroup(pgid);
  const parts: unknown[] = [tracked, tracked?.id, tracked ? monitor.groupFlags(tracked).join() : ''];
  for (const p of members) {
    const r = p.record;
    // Every field a process view is built from: a sweep re-reads each record, mostly to the same values.
    parts.push(p, r.pid, r.ppid, r.pgid, r.sid, r.uid, r.state, r.startKey, r.startedAt, r.cpuTimeMs);
    parts.push(r.rssBytes, r.footprintBytes, r.name, r.argv, r.tty, r.environReadable);
    parts.push(p.cpuPercent, p.orphanedAt, p.runaway.active, p.heldPipe, p.lineage);
  }
  return parts;
}
