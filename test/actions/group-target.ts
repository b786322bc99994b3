import { chooseAnchor, formatGroupId } from '../../main/core/analysis/group-id';
import { toProcessView } from '../../main/core/analysis/grouping';
import type { ProcessIdentity, TeardownTarget } from '../../main/core/actions/stop-and-record';
import type { ProcessRecord } from '../../main/core/model/process-record';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import type { GroupView, ProcessFlag } from '../../shared/model';
import { makeGroup } from '../transport/fake-corral-service';
import { spawnGroup, type SpawnedGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

export const newSampler = (): LinuxSampler => new LinuxSampler({ markerKeys: new Set() });

export function identity(r: ProcessRecord): ProcessIdentity {
  return { pid: r.pid, startKey: r.startKey, command: r.argv.join(' ') || r.name };
}

/** Live (non-zombie) members of a PGID, as the sampler sees them. */
export function liveMembers(sampler: LinuxSampler, pgid: number): ProcessRecord[] {
  return sampler.sampleAll().filter((r) => r.pgid === pgid && r.state !== 'Z');
}

export function readIdentity(sampler: LinuxSampler, pid: number): ProcessIdentity {
  const record = sampler.readOne(pid);
  if (!record) throw new Error(`process ${pid} is not alive`);
  return identity(record);
}

/** A teardown target for a live group, the way `corral ps` would describe it. */
export function targetFor(
  sampler: LinuxSampler,
  pgid: number,
  extra: Partial<Omit<TeardownTarget, 'groupId' | 'pgid' | 'sid' | 'members'>> = {},
): TeardownTarget {
  const members = liveMembers(sampler, pgid);
  if (members.length === 0) throw new Error(`group ${pgid} is empty`);
  const anchor = extra.anchor ?? chooseAnchor(pgid, members);
  return {
    groupId: formatGroupId({ pgid, anchorPid: anchor.pid, anchorStartKey: anchor.startKey }),
    pgid,
    sid: members[0]!.sid,
    anchor: { pid: anchor.pid, startKey: anchor.startKey },
    members: members.map(identity),
    orphans: extra.orphans ?? [],
    escaped: extra.escaped ?? [],
    containsAgent: extra.containsAgent ?? false,
    protectedReason: extra.protectedReason ?? null,
  };
}

/** A live group as a service's snapshot shows it (no agent, its members flagged `flags`). */
export function groupViewFor(
  sampler: LinuxSampler,
  pgid: number,
  extra: Partial<GroupView> = {},
  flags: ProcessFlag[] = [],
): GroupView {
  const target = targetFor(sampler, pgid);
  const members = liveMembers(sampler, pgid);
  return makeGroup({
    id: target.groupId,
    pgid,
    sid: target.sid,
    leaderPid: pgid,
    leaderAlive: members.some((r) => r.pid === pgid),
    agent: null,
    flags: [],
    processes: members.map((r) => toProcessView(r, { cpuPercent: null, flags })),
    ...extra,
  });
}

/** A real leftover (a `tail` in a group of its own) and its view, as a service's snapshot would show it. */
export async function spawnedGroupView(
  extra: Partial<GroupView> = {},
  flags: ProcessFlag[] = ['orphan'],
): Promise<{ leftover: SpawnedGroup; view: GroupView }> {
  const leftover = spawnGroup('echo ok > "$DIR/ready"; exec tail -f /dev/null');
  await leftover.ready('ready');
  const sampler = newSampler();
  try {
    await waitFor("tail to be exec'd", () => sampler.readOne(leftover.pid)?.name === 'tail');
    return { leftover, view: groupViewFor(sampler, leftover.pgid, extra, flags) };
  } finally {
    sampler.close();
  }
}
