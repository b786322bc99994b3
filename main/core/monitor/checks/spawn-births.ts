import { commandOf } from '../../analysis/grouping';
import type { ProcessRecord } from '../../model/process-record';
import type { MonitorState } from '../table/monitor-state';
import { GroupSpawns } from '../table/group-spawns';
import type { TrackedGroup, TrackedProcess } from '../table/tracked';

/**
 * A pid this far below the newest is taken for allocation having wrapped around (pid_max is 32,768 at
 * the least by default), not for a retry (a few looks of at most 2,000 pids each).
 */
const WRAP_DISTANCE = 10_000;
/** Counted runs remembered: more than a few looks' worth, while the sampler reads a missed pid again. */
const KEPT_RUNS = 64;

/** Shells, by the name the kernel gives them: what runs `while`, `until` and `for` loops. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'busybox']);

/** A process first read in this batch: the groups its birth counts for, and its command. */
interface Birth {
  /** Its own group's id; null when no agent's group holds it (then it is someone else's birth). */
  key: string | null;
  groups: TrackedGroup[];
  /** What it runs; null when read between fork and exec (still a copy of its parent). */
  command: string | null;
  /** Its parent's pid when that is a shell (a loop's body is a shell's child); null otherwise. */
  shell: number | null;
}

/** Births read before their exec: the groups they count for, and the shell that started them. */
interface BeforeExec {
  groups: TrackedGroup[];
  shell: number | null;
}

function shellOf(parent: TrackedProcess | undefined): number | null {
  return parent && parent.exitedAt === null && SHELLS.has(parent.record.name) ? parent.record.pid : null;
}

/**
 * `count` births of the group at `now`, read (`seen`) or counted between two that were; `command` when
 * their command line was read, `shell` when a shell started them (its loop, spawn-storm's rule).
 */
function addBirths(
  g: TrackedGroup,
  now: number,
  b: { count: number; seen: boolean; command: string | null; shell: number | null },
): void {
  const window = spawnsOf(g, now).window;
  window.add(now, b.count, b.seen);
  // A birth counted already (unread, in a run) still says what it ran, once.
  if (b.command !== null) window.addCommand(now, b.command, Math.max(1, b.count));
  if (b.shell !== null) window.loops.add(now, b.shell, b.count, b.seen ? b.command : null);
}

/** The command of a record, or null while it is still its parent's copy (forked, not yet exec'd). */
function commandAfterExec(r: ProcessRecord, parent: TrackedProcess | undefined): string | null {
  if (r.argv.length === 0) return null;
  const command = commandOf(r);
  if (parent && parent.record.name === r.name && commandOf(parent.record) === command) return null;
  return command;
}

/**
 * Counts each agent's group's births, for the spawn-storm flag.
 *
 * A birth is a process first read while Corral watches. The monitor reads the pids the kernel's counter
 * announced since its last look (every 40–200 ms while an agent is busy, 1 s otherwise), so a process
 * that lives less than that is often gone before it is read: a fork loop's `/bin/true` lives 1 ms. Those
 * pids are not lost: the counter announced them. A run of pids that could not be read, between two
 * births of the same group in the counter's order with no other process read in between, is counted
 * as that group's (unseen births, under the command of its neighbours when both ran the same one). A
 * birth of anyone else, or a look that had to list the table instead (the counter too far ahead, or
 * unreadable), ends the run uncounted. What this can overcount: threads (a pid too, unreadable as a
 * process) and other users' processes that were born and died inside such a run; docs/spawn-storms.md.
 */
export class SpawnBirths {
  private announced: number[] = [];
  /** Pids the sampler read again at this look, announced at an earlier one. */
  private retried = new Set<number>();
  /** The last process read in the counter's order, and the unreadable pids since. */
  private last: Birth | null = null;
  private lastPid = 0;
  private unseen = 0;
  /** The runs counted lately: a pid read after its run was counted (a retry) is no second birth. */
  private readonly counted = new CountedRuns();
  /** The newest pid announced so far. */
  private newest: number | null = null;
  /** The newest pid announced at the looks already counted: one at or below it was counted unread if missed. */
  private newestCounted: number | null = null;
  /** Births read before their exec, by process: their command counts when they are read after it. */
  private readonly beforeExec = new WeakMap<TrackedProcess, BeforeExec>();

  constructor(private readonly state: MonitorState) {}

  /** The pids the counter announced at one look, in allocation order; null: it could not tell. */
  announce(pids: readonly number[] | null): void {
    if (pids === null) {
      this.announced = [];
      this.last = null;
      this.unseen = 0;
      return;
    }
    for (const pid of pids) {
      // The sampler appends pids it could not read yet to each look, to read them again: in the
      // counter's order each pid comes once (a smaller one after a larger is such a retry, unless
      // allocation wrapped around at pid_max).
      if (this.newest !== null && pid <= this.newest && this.newest - pid < WRAP_DISTANCE) {
        this.retried.add(pid);
        continue;
      }
      // Allocation wrapped around: the pids of the runs counted before may be handed out again.
      if (this.newest !== null && pid < this.newest) this.counted.clear();
      this.newest = pid;
      this.announced.push(pid);
    }
  }

  /** After a batch of records went into the table and groups: the births in it, counted. */
  count(records: readonly ProcessRecord[], now: number): void {
    const state = this.state;
    const firstLook = state.watchingSince === now;
    const born = new Map<number, Birth>();
    for (const r of records) {
      const p = state.procs.get(r.pid);
      if (!p || p.record !== r) continue;
      if (p.firstSeenAt !== now) {
        this.execSeen(p, now);
        continue;
      }
      // The first look finds what was already running: no births.
      if (firstLook) continue;
      const birth = this.birthOf(p);
      born.set(r.pid, birth);
      const count = this.retriedCount(r.pid);
      for (const g of birth.groups) addBirths(g, now, { ...birth, count, seen: true });
      if (birth.command === null && birth.groups.length > 0)
        this.beforeExec.set(p, { groups: birth.groups, shell: birth.shell });
    }
    const announced = this.announced;
    this.announced = [];
    this.retried.clear();
    for (const pid of announced) {
      const birth = born.get(pid);
      if (birth) {
        const last = this.last;
        if (last && birth.key !== null && last.key === birth.key && this.unseen > 0) {
          const command = last.command !== null && last.command === birth.command ? birth.command : null;
          const shell = last.shell === birth.shell ? birth.shell : null;
          for (const g of birth.groups)
            addBirths(g, now, { count: this.unseen, seen: false, command, shell });
          this.counted.add(this.lastPid, pid);
        }
        this.last = birth;
        this.lastPid = pid;
        this.unseen = 0;
      } else if (!state.procs.has(pid)) this.unseen++;
    }
    const newest = announced[announced.length - 1];
    if (newest !== undefined) this.countOpenStormRun(newest, now);
    this.newestCounted = this.newest;
  }

  /**
   * A flagged storm's open run, counted at each look rather than when it closes: a loop as fast as a quiet
   * machine runs one (50,000 a minute) can go 10 s without a child read, and its summary would count none
   * of that interval's births and all of them in the next. Only while the last birth read is the storm's.
   */
  private countOpenStormRun(newest: number, now: number): void {
    const last = this.last;
    if (!last || last.key === null || this.unseen === 0 || !last.groups[0]?.spawns?.state.active) return;
    for (const g of last.groups)
      addBirths(g, now, { count: this.unseen, seen: false, command: null, shell: last.shell });
    this.counted.add(this.lastPid, newest + 1);
    this.lastPid = newest;
    this.unseen = 0;
  }

  /**
   * A pid announced before /proc showed it, read at a later look: counted unread already when its run was
   * (0), or to be when the open run is (that run is one shorter); otherwise a birth like any (1).
   */
  private retriedCount(pid: number): number {
    // Whatever path read it (a retry, a missed parent read with its child), a pid of a run counted unread
    // was born once already.
    if (this.counted.has(pid)) return 0;
    // Announced at an earlier look and missed there, so counted unread in the open run: whatever path
    // reads it now (a retry, or a missed parent read with its child), that run is one shorter.
    if (!this.retried.has(pid) && !this.announcedEarlier(pid)) return 1;
    if (this.last !== null && pid > this.lastPid && this.unseen > 0) this.unseen--;
    return 1;
  }

  private announcedEarlier(pid: number): boolean {
    const newest = this.newestCounted;
    return newest !== null && pid <= newest && newest - pid < WRAP_DISTANCE;
  }

  /** A birth first read before its exec, read again: once exec'd, its command counts. */
  private execSeen(p: TrackedProcess, now: number): void {
    const before = this.beforeExec.get(p);
    if (!before) return;
    const command = commandAfterExec(p.record, this.state.procs.get(p.record.ppid));
    if (command === null && p.exitedAt === null) return;
    this.beforeExec.delete(p);
    if (command !== null)
      for (const g of before.groups) {
        g.spawns?.window.addCommand(now, command, 1);
        if (before.shell !== null) g.spawns?.window.loops.add(now, before.shell, 0, command);
      }
  }

  private birthOf(p: TrackedProcess): Birth {
    // Someone else's birth (or an agent's own process) only ends a run of unseen pids.
    if (!p.attribution || p.attribution.isAgent) return { key: null, groups: [], command: null, shell: null };
    const parent = this.state.procs.get(p.record.ppid);
    const command = commandAfterExec(p.record, parent);
    const groups: TrackedGroup[] = [];
    const own = this.state.liveGroupByPgid.get(p.record.pgid);
    const inOwn = own !== undefined && bornInto(own.live, p, parent);
    // Its group's leader founded the group: not one of its births (a tool call's shell would otherwise
    // be a loop's "repeated command" until its children's own command lines were read twice).
    if (inOwn && p.record.pid !== p.record.pgid) groups.push(own);
    // One that left its tool call's group (setsid, a job-control shell) still counts for that group.
    const originPgid = p.lineage?.originPgid;
    if (originPgid !== undefined && originPgid !== p.record.pgid) {
      const origin = this.state.liveGroupByPgid.get(originPgid);
      if (origin && bornInto(origin.members, p, parent)) groups.push(origin);
    }
    return { key: inOwn ? own.id : null, groups, command, shell: shellOf(parent) };
  }
}

/**
 * Whether a process first read in this batch is one of these members' births. One first read as a zombie
 * (a loop's `/bin/true` read after its exit, before its shell reaped it: a fork loop's children often are)
 * is in no group's members, being gone already: it is its parent's group's birth when its parent is in it.
 */
function bornInto(
  members: { has(identity: string): boolean },
  p: TrackedProcess,
  parent: TrackedProcess | undefined,
): boolean {
  if (members.has(p.identity)) return true;
  return (
    p.exitedAt !== null && parent !== undefined && parent.exitedAt === null && members.has(parent.identity)
  );
}

/** Runs lately counted (in the counter's order, ends excluded), so many as retries may still come in. */
class CountedRuns {
  private readonly runs: Array<[number, number]> = [];

  add(after: number, before: number): void {
    // Allocation wrapped around inside the run: its pids are not one interval, and older ones come again.
    if (before <= after) return this.clear();
    const newest = this.runs[this.runs.length - 1];
    // A loop's runs follow one another, each ending at the birth the next begins at: one interval.
    if (newest && newest[1] === after) newest[1] = before;
    else {
      this.runs.push([after, before]);
      if (this.runs.length > KEPT_RUNS) this.runs.shift();
    }
  }

  clear(): void {
    this.runs.length = 0;
  }

  has(pid: number): boolean {
    for (const [after, before] of this.runs) if (pid > after && pid < before) return true;
    return false;
  }
}

function spawnsOf(group: TrackedGroup, now: number): GroupSpawns {
  return (group.spawns ??= new GroupSpawns(now));
}
