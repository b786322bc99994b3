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
  if (b.command !== null) window.addCommand(now, b.command, b.count);
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
  /** The last process read in the counter's order, and the unreadable pids since. */
  private last: Birth | null = null;
  private unseen = 0;
  /** The newest pid announced so far. */
  private newest: number | null = null;
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
      if (this.newest !== null && pid <= this.newest && this.newest - pid < WRAP_DISTANCE) continue;
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
      for (const g of birth.groups) addBirths(g, now, { ...birth, count: 1, seen: true });
      if (birth.command === null && birth.groups.length > 0)
        this.beforeExec.set(p, { groups: birth.groups, shell: birth.shell });
    }
    const announced = this.announced;
    this.announced = [];
    for (const pid of announced) {
      const birth = born.get(pid);
      if (birth) {
        const last = this.last;
        if (last && birth.key !== null && last.key === birth.key && this.unseen > 0) {
          const command = last.command !== null && last.command === birth.command ? birth.command : null;
          const shell = last.shell === birth.shell ? birth.shell : null;
          for (const g of birth.groups)
            addBirths(g, now, { count: this.unseen, seen: false, command, shell });
        }
        this.last = birth;
        this.unseen = 0;
      } else if (!state.procs.has(pid)) this.unseen++;
    }
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
    if (own?.live.has(p.identity)) groups.push(own);
    // One that left its tool call's group (setsid, a job-control shell) still counts for that group.
    const originPgid = p.lineage?.originPgid;
    if (originPgid !== undefined && originPgid !== p.record.pgid) {
      const origin = this.state.liveGroupByPgid.get(originPgid);
      if (origin?.members.has(p.identity)) groups.push(origin);
    }
    return { key: own?.live.has(p.identity) ? own.id : null, groups, command, shell: shellOf(parent) };
  }
}

function spawnsOf(group: TrackedGroup, now: number): GroupSpawns {
  return (group.spawns ??= new GroupSpawns(now));
}
