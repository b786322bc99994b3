import type { TrackedProcess } from '../table/tracked';

/** One member as last read: its own CPU time, its reaped children's, its parent, and what was counted of it. */
interface Counted {
  own: number | null;
  children: number | null;
  ppid: number;
  countedMs: number;
}

/**
 * A group's CPU over an incident, counted once. Each live member's own CPU time as it grows, and what
 * its children burned once it reaped them (`childCpuTimeMs`: cutime + cstime, which the kernel adds
 * when wait returns). That is what a fork loop's or crash loop's children cost: most live less than a
 * look and are never read, and even one that was read has its last moments counted only there.
 *
 * A member reaped by a member was partly counted already, while it was read: its parent's children's
 * time will grow by its whole life (its own reaped children included), so what was counted of it is
 * held as a credit against that parent's next growth. One reparented before it exited (its parent
 * gone) is reaped by init or a subreaper, no member: nothing to deduct. One that left the group alive
 * (setsid) and is reaped by a member later is counted from its whole life less what was counted
 * while it was a member: the time it burned outside the group counts too, once.
 */
export class IncidentCpu {
  private counted = new Map<string, Counted>();
  /** By parent identity: what was counted of its children that left the live members, not yet reaped. */
  private readonly credit = new Map<string, number>();

  /** The CPU-seconds these live members burned since the last reading (none at the first). */
  add(members: readonly TrackedProcess[]): number {
    const live = new Map<string, TrackedProcess>();
    const identityOfPid = new Map<number, string>();
    for (const p of members) {
      live.set(p.identity, p);
      identityOfPid.set(p.record.pid, p.identity);
    }
    for (const [identity, c] of this.counted) {
      if (live.has(identity)) continue;
      const parent = identityOfPid.get(c.ppid);
      if (parent !== undefined) this.credit.set(parent, (this.credit.get(parent) ?? 0) + c.countedMs);
    }
    let ms = 0;
    const next = new Map<string, Counted>();
    for (const p of members) {
      const own = p.record.cpuTimeMs;
      const children = p.record.childCpuTimeMs ?? null;
      const last = this.counted.get(p.identity);
      let grew = 0;
      if (last?.own != null && own !== null) grew += Math.max(0, own - last.own);
      if (last?.children != null && children !== null)
        grew += this.beyondCredit(p.identity, children - last.children);
      ms += grew;
      next.set(p.identity, {
        own: own ?? last?.own ?? null,
        children: children ?? last?.children ?? null,
        ppid: p.record.ppid,
        countedMs: (last?.countedMs ?? 0) + grew,
      });
    }
    // A parent gone takes its credit with it: nothing of its children will be added anywhere now.
    for (const identity of this.credit.keys()) if (!live.has(identity)) this.credit.delete(identity);
    this.counted = next;
    return ms / 1000;
  }

  private beyondCredit(identity: string, grownMs: number): number {
    if (!(grownMs > 0)) return 0;
    const credit = this.credit.get(identity) ?? 0;
    const taken = Math.min(credit, grownMs);
    if (credit - taken > 0) this.credit.set(identity, credit - taken);
    else this.credit.delete(identity);
    return grownMs - taken;
  }
}
