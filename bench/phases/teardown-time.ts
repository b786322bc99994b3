import { teardown } from '../../main/core/actions/stop-and-record';
import { formatGroupId } from '../../main/core/analysis/group-id';
import { createSampler } from '../../main/core/sampling/create-sampler';
import type { ProcessSampler } from '../../main/core/sampling/process-sampler';
import { liveCount, removeGroups, spawnPopulation } from '../lib/populations';

export interface TeardownRun {
  /** From the SIGTERM to -PGID until teardown() confirmed every member gone. */
  termToGoneMs: number;
  /** From calling teardown() until it returned. */
  totalMs: number;
  clean: boolean;
  signals: string[];
  /** Non-zombie members left afterwards, by an independent /proc scan (must be 0). */
  leftAlive: number;
}

/** Builds the target a user's "stop group" would send, for a group the bench made itself. */
function targetFor(sampler: ProcessSampler, pgid: number): Parameters<typeof teardown>[0] {
  const members = sampler.sampleAll().filter((r) => r.pgid === pgid);
  const leader = members.find((r) => r.pid === pgid);
  if (!leader) throw new Error(`group ${pgid} has no leader to anchor it`);
  return {
    groupId: formatGroupId({ pgid, anchorPid: leader.pid, anchorStartKey: leader.startKey }),
    pgid,
    sid: leader.sid,
    anchor: { pid: leader.pid, startKey: leader.startKey },
    members: members.map((r) => ({ pid: r.pid, startKey: r.startKey, command: r.name })),
    orphans: [],
    escaped: [],
    containsAgent: false,
    protectedReason: null,
  };
}

/** Spawns one group of `size` processes and tears it down with Corral's teardown, timing it. */
export async function timeTeardown(
  size: number,
  { ignoreTerm, graceMs }: { ignoreTerm: boolean; graceMs: number },
): Promise<TeardownRun> {
  const [group] = await spawnPopulation(size, { perGroup: size, ignoreTerm });
  const pgid = group!.pgid;
  try {
    const sampler = createSampler({ markerKeys: new Set() });
    const target = targetFor(sampler, pgid);
    const t0 = Date.now();
    const result = await teardown(target, {
      graceMs,
      mode: 'group',
      withEscaped: false,
      dryRun: false,
      sampler,
    });
    const totalMs = Date.now() - t0;
    const term = result.signals.find((s) => s.signal === 'SIGTERM');
    if (result.refused) throw new Error(`teardown refused: ${result.refused}`);
    return {
      termToGoneMs: result.finishedAt - (term?.at ?? t0),
      totalMs,
      clean: result.clean,
      signals: result.signals.map((s) => `${s.signal} ${s.target} ${s.result}`),
      leftAlive: liveCount([pgid]),
    };
  } finally {
    await removeGroups([pgid]);
  }
}
