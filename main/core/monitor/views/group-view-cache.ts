import type { GroupView } from '../../../../shared/model';
import { groupFlags } from '../table/group-flags';
import type { ProcessRecord } from '../../model/process-record';
import { valuesDiffer } from '../table/record-values';
import type { TrackedProcess, TrackedTable } from '../table/tracked';

type ViewSource = Pick<TrackedTable, 'liveGroup'>;

export interface GroupViewCacheOptions {
  /**
   * How long an agent's group's view is kept, at most, with its decoration: the service's provenance
   * says (provenance/group-context.ts DECORATED_VIEW_MAX_AGE_MS). Absent: while its inputs stand.
   */
  decoratedMaxAgeMs?: number;
  /** Monotonic milliseconds: a wall clock set back must not keep a view longer. */
  now?: () => number;
}

/**
 * Views of groups, kept while nothing they are built from changed. Between sweeps the monitor re-reads
 * no idle process, so with a page open on "Everything" almost every group would be built again, and
 * compared again, only to come out the same. A view is reused when its members are the same tracked
 * processes whose records hold the same values (compared as the process table compares them, in
 * record-values.ts, so a sweep that re-reads an idle process changes nothing) with the same CPU
 * reading, attribution and flags' inputs.
 *
 * An agent's group is also decorated (provenance: session, tool call, roles, cwd, ports), and its view
 * is kept with that decoration. Decoration reads other groups too (the agent's liveness, the lineage of
 * sessions, the parents a role is found through): every agent's group is built again when any agent's
 * process came, went, or changed how it is related (its parent, group, session, argv or markers), and
 * at least every `decoratedMaxAgeMs`. Only the groups whose processes moved are decorated each poll:
 * with an agent alive that is its own group, not the ten tool calls it left sleeping.
 *
 * Each group's inputs are compared and written into the array kept for it, in place: this runs for
 * every process once a second while a page is open, and allocating them anew was most of what the
 * view path gave the garbage collector.
 */
export class GroupViewCache {
  private entries = new Map<
    number,
    { inputs: unknown[]; view: GroupView | null; at: number; relations: number }
  >();
  /** Groups looked at since the last `keep`. */
  private looked = new Set<number>();
  private readonly relationInputs: unknown[] = [];
  /** Moves whenever `relate` finds the agents' processes related otherwise than before. */
  private relations = 0;
  private readonly decoratedMaxAgeMs: number;
  private readonly now: () => number;

  constructor({ decoratedMaxAgeMs = Infinity, now = () => performance.now() }: GroupViewCacheOptions = {}) {
    this.decoratedMaxAgeMs = decoratedMaxAgeMs;
    this.now = now;
  }

  /**
   * Called once per snapshot, before `reuse`, with every live attributed process: when any came, went or
   * is related otherwise, no agent's group is reused.
   */
  relate(attributed: readonly TrackedProcess[]): void {
    const w = new InputsWriter(this.relationInputs);
    for (const p of attributed) {
      w.put(p);
      w.put(p.attribution);
      const r = p.record;
      w.put(r.ppid);
      w.put(r.pgid);
      w.put(r.sid);
      w.put(r.startKey);
      w.put(r.argv);
      w.put(r.markers);
    }
    if (!w.end()) this.relations++;
  }

  /**
   * A copy of the kept view of `pgid` (its process list shared, never to be mutated) when its inputs
   * are unchanged, or null: the group is then built (and decorated) and handed to `keep`.
   */
  reuse(monitor: ViewSource, pgid: number, members: readonly TrackedProcess[]): GroupView | null {
    this.looked.add(pgid);
    let entry = this.entries.get(pgid);
    if (!entry) {
      entry = { inputs: [], view: null, at: 0, relations: -1 };
      this.entries.set(pgid, entry);
    }
    const same = recordInputs(entry.inputs, monitor, pgid, members);
    const fresh =
      !members.some((p) => p.attribution !== null) ||
      (entry.relations === this.relations && this.now() - entry.at < this.decoratedMaxAgeMs);
    if (!same || entry.view === null || !fresh) {
      entry.view = null;
      return null;
    }
    return { ...entry.view };
  }

  /**
   * Keeps the views just built (and decorated) for the next time, and forgets groups not looked at since
   * the last call.
   */
  keep(built: readonly GroupView[]): GroupView[] {
    for (const pgid of this.entries.keys()) if (!this.looked.has(pgid)) this.entries.delete(pgid);
    this.looked.clear();
    const at = this.now();
    return built.map((view) => {
      const entry = this.entries.get(view.pgid);
      if (!entry) return view;
      entry.view = view;
      entry.at = at;
      entry.relations = this.relations;
      return { ...view };
    });
  }
}

/**
 * Writes into `into` every value of its own a group's view is built from; true when none differed
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
  w.put(tracked ? groupFlags(tracked).join() : '');
  w.put(tracked?.spawns?.facts);
  for (const p of members) {
    w.put(p);
    w.put(p.attribution);
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
