import type { GroupView } from '../../../shared/model';
import type { Monitor } from './monitor';
import type { ProcessRecord } from '../sampling/process-record';
import { valuesDiffer } from './record-values';
import type { TrackedProcess } from './tracked';

type ViewSource = Pick<Monitor, 'liveGroup' | 'groupFlags'>;

/**
 * Views of the groups no agent owns, kept while nothing they are built from changed. Between sweeps
 * the monitor re-reads no such process, so with a page open on "Everything" almost every group would
 * be built again, and compared again, only to come out the same. A view is reused when its members
 * are the same tracked processes whose records hold the same values (compared as the process table
 * compares them, in record-values.ts, so a sweep that re-reads an idle process changes nothing) with
 * the same CPU reading and flags' inputs.
 * Agents' groups are always built afresh: their processes are re-read each poll, and provenance writes
 * into their process views.
 *
 * Each group's inputs are compared and written into the array kept for it, in place: this runs for
 * every process once a second while a page is open, and allocating them anew was most of what the
 * view path gave the garbage collector.
 */
export class GroupViewCache {
  private entries = new Map<number, { inputs: unknown[]; view: GroupView | null }>();
  /** Groups looked at since the last `keep`, and whether their inputs were recorded (no agent's). */
  private looked = new Map<number, boolean>();

  /**
   * A copy of the kept view of `pgid` (its process list shared, never to be mutated) when its inputs
   * are unchanged, or null: the group is then built and handed to `keep`.
   */
  reuse(monitor: ViewSource, pgid: number, members: readonly TrackedProcess[]): GroupView | null {
    if (members.some((p) => p.attribution !== null)) {
      this.looked.set(pgid, false);
      return null;
    }
    this.looked.set(pgid, true);
    let entry = this.entries.get(pgid);
    if (!entry) {
      entry = { inputs: [], view: null };
      this.entries.set(pgid, entry);
    }
    const same = recordInputs(entry.inputs, monitor, pgid, members);
    if (!same || entry.view === null) {
      entry.view = null;
      return null;
    }
    return { ...entry.view };
  }

  /** Keeps the views just built for the next time, and forgets groups not looked at since the last call. */
  keep(built: readonly GroupView[]): GroupView[] {
    for (const pgid of this.entries.keys()) if (this.looked.get(pgid) !== true) this.entries.delete(pgid);
    this.looked.clear();
    return built.map((view) => {
      const entry = this.entries.get(view.pgid);
      if (!entry) return view;
      entry.view = view;
      return { ...view };
    });
  }
}

/**
 * Writes into `into` every value a non-agent group's view is built from; true when none differed
 * from what `into` held.
 */
function recordInputs(
  into: unknown[],
  monitor: ViewSource,
  pgid: number,
  members: readonly TrackedProcess[],
): boolean {
  const tracked = monitor.liveGroup(pgid);
  const w = new InputsWriter(into);
  w.put(tracked);
  w.put(tracked?.id);
  w.put(tracked ? monitor.groupFlags(tracked).join() : '');
  for (const p of members) {
    w.put(p);
    w.put(p.cpuPercent);
    w.put(p.orphanedAt);
    w.put(p.runaway.active);
    w.put(p.heldPipe);
    w.put(p.lineage);
    w.putRecord(p.record);
  }
  return w.end();
}

class InputsWriter {
  private at = 0;
  private same = true;

  constructor(private readonly into: unknown[]) {}

  put(value: unknown): void {
    const into = this.into;
    if (this.at < into.length) {
      if (into[this.at] !== value) {
        into[this.at] = value;
        this.same = false;
      }
    } else {
      into.push(value);
      this.same = false;
    }
    this.at++;
  }

  /**
   * Writes a process's record: the same when it is the record in its place (records are never changed,
   * and the Linux sampler hands back the same one while a process has not run), or one with its values.
   */
  putRecord(record: ProcessRecord): void {
    const into = this.into;
    if (this.at < into.length) {
      // While every value so far matched, this place held the record of the same process last time.
      const before = into[this.at] as ProcessRecord;
      if (before !== record) {
        if (this.same && valuesDiffer(before, record)) this.same = false;
        into[this.at] = record;
      }
    } else {
      into.push(record);
      this.same = false;
    }
    this.at++;
  }

  end(): boolean {
    if (this.into.length !== this.at) {
      this.into.length = this.at;
      this.same = false;
    }
    return this.same;
  }
}
