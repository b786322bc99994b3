import type { MemberStat } from './member-stats';
import { identityKey } from '../model/identity';
import { killResult } from './identity-signal';
import type { SignalName, SignalResult } from './teardown-types';

/**
 * The identities (pid + start key) known to belong to the chosen group. A PGID number stays taken
 * while any process is in the group, so one of these identities present in the PGID right now
 * proves the PGID is still that group, and everything else in it at that instant belongs too.
 */
export class GroupIdentities {
  private readonly keys = new Set<string>();

  constructor(readonly pgid: number) {}

  add(pid: number, startKey: number): void {
    this.keys.add(identityKey(pid, startKey));
  }

  has(pid: number, startKey: number): boolean {
    return this.keys.has(identityKey(pid, startKey));
  }

  /** True when one of `records` is a known identity that is still in the PGID. */
  provenBy(records: Iterable<MemberStat>): boolean {
    for (const r of records) if (r.pgid === this.pgid && this.has(r.pid, r.startKey)) return true;
    return false;
  }

  /** Members (by identity) now in the group, when proven: they become known identities too. */
  enrol(records: Iterable<MemberStat>): boolean {
    const inGroup = [...records].filter((r) => r.pgid === this.pgid);
    if (!this.provenBy(inGroup)) return false;
    for (const r of inGroup) this.add(r.pid, r.startKey);
    return true;
  }
}

/** Proof, fresh from the process table, that `pgid` is still the chosen group. Only this can signal a group. */
export interface VerifiedGroup {
  readonly pgid: number;
  readonly provenAt: number;
}

/** `records` must be fresh from the table, read immediately before the signal. */
export function verifyGroup(group: GroupIdentities, records: Iterable<MemberStat>): VerifiedGroup | null {
  if (!(group.pgid > 1)) return null;
  return group.provenBy(records) ? { pgid: group.pgid, provenAt: Date.now() } : null;
}

type KillGroup = (pgid: number, signal: SignalName | 'SIGCONT' | 0) => void;

const osKillGroup: KillGroup = (pgid, signal) => process.kill(-pgid, signal);
let killGroup: KillGroup = osKillGroup;

/**
 * For tests only: kill(-pgid) through a stand-in (the macOS rules, test/darwin/darwin-killpg.ts).
 * Returns the function that puts the system call back.
 */
export function replaceGroupKillForTest(stand: KillGroup): () => void {
  killGroup = stand;
  return () => {
    killGroup = osKillGroup;
  };
}

/**
 * The single place that signals a negative PGID. On macOS a group whose members are all zombies
 * answers EPERM, not success (xnu bsd/kern/kern_sig.c, killpg1): EPERM alone never proves a member
 * belongs to another user.
 */
export function signalGroup(group: VerifiedGroup, signal: SignalName | 'SIGCONT'): SignalResult {
  if (!Number.isSafeInteger(group.pgid) || group.pgid <= 1) return 'error';
  return killResult(() => killGroup(group.pgid, signal));
}

/**
 * Whether any process is still in the PGID, with signal 0 (which sends nothing, so needs no proof).
 * One system call instead of a read per member: the cheap way to watch a large group empty. Zombies
 * count as members (Linux succeeds, macOS answers EPERM): they hold the PGID until reaped.
 */
export function groupHasMembers(pgid: number): boolean {
  if (!Number.isSafeInteger(pgid) || pgid <= 1) return false;
  try {
    killGroup(pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
