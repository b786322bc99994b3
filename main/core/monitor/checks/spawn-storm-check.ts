import type { Settings, SpawnStormFacts } from '../../../../shared/model';
import { DEFAULT_SPAWN_STORM } from '../../../../shared/settings-table';
import {
  nextSpawnStormState,
  rateWindowMs,
  type SpawnStormPolicy,
  type SpawnStormState,
} from '../../analysis/spawn-storm';
import type { IncidentGlue } from '../incidents/incident-glue';
import { INCIDENT_EVERY_MS, type GroupSpawns } from '../table/group-spawns';
import type { MonitorState } from '../table/monitor-state';
import type { TrackedGroup } from '../table/tracked';

/** While a storm lasts, one `spawn-storm-summary` event at most this often says what it did since. */
export const SUMMARY_EVERY_MS = 10_000;
const REPEATED_SHOWN = 5;

export function spawnStormPolicy(settings: Settings): SpawnStormPolicy {
  return settings.spawnStorm ?? DEFAULT_SPAWN_STORM;
}

/**
 * Once per poll: each live group's birth rate and live members through the spawn-storm rule, its
 * `spawn-storm` / `spawn-storm-cleared` events, and what its incident records (the rate, the members,
 * the repeated commands).
 */
export class SpawnStormCheck {
  constructor(
    private readonly state: MonitorState,
    private readonly incidents: IncidentGlue,
    private readonly settings: () => Settings,
  ) {}

  run(now: number): void {
    const policy = spawnStormPolicy(this.settings());
    for (const group of this.state.liveGroupByPgid.values()) {
      const spawns = group.spawns;
      if (spawns) this.update(group, spawns, now, policy);
    }
  }

  /** After the incidents were brought up to date: a storming group's incident gets its facts. */
  recordOnIncidents(now: number): void {
    for (const group of this.state.liveGroupByPgid.values()) {
      const spawns = group.spawns;
      if (!spawns?.facts || now - spawns.notedAt < INCIDENT_EVERY_MS) continue;
      if (this.incidents.noteSpawnStorm(group.id, spawns.facts)) spawns.notedAt = now;
    }
  }

  private update(group: TrackedGroup, spawns: GroupSpawns, now: number, policy: SpawnStormPolicy): void {
    const live = group.live.size;
    const windowMs = policy.windowSeconds * 1000;
    const rateMs = rateWindowMs(policy);
    const perMinute = spawns.window.perMinute(now, rateMs);
    const repeatsPerMinute = spawns.window.topLoopPerMinute(now, rateMs);
    const membersWindowAgo = spawns.membersAt(now, live, windowMs);
    let childCpuMs = 0;
    for (const id of group.live) childCpuMs += group.members.get(id)?.record.childCpuTimeMs ?? 0;
    const childCpuGrew = childCpuMs > spawns.childCpuMs;
    spawns.childCpuMs = childCpuMs;
    const before = spawns.state;
    const after = nextSpawnStormState(
      before,
      { perMinute, repeatsPerMinute, members: live, membersWindowAgo, childCpuGrew },
      now,
      policy,
    );
    spawns.state = after;
    const rates = { perMinute, repeatsPerMinute };
    if (after.active) spawns.facts = factsOf(spawns, after, rates, live, spawns.facts);
    if (before.active && after.active) {
      if (now - spawns.summarizedAt >= SUMMARY_EVERY_MS) this.summarize(group, spawns, spawns.facts!, now);
      return;
    }
    if (before.active === after.active) return;
    const facts = factsOf(spawns, after.active ? after : before, rates, live, null);
    const top = facts.repeated[0];
    this.state.emitGroup(after.active ? 'spawn-storm' : 'spawn-storm-cleared', group, now, {
      reason: facts.reason,
      birthsPerMinute: perMinute,
      repeatsPerMinute,
      peakBirthsPerMinute: facts.peakBirthsPerMinute,
      members: live,
      repeatedCommand: top?.command ?? null,
      repeatedCount: top?.count ?? null,
      unannounced: spawns.unannounced,
    });
    spawns.summarizedAt = now;
    spawns.birthsAtSummary = facts.births;
    spawns.unannounced = 0;
    if (!after.active) {
      // The incident keeps the storm at its peak; the view no longer shows it.
      this.incidents.noteSpawnStorm(group.id, { ...facts, endedAt: now });
      spawns.facts = null;
      spawns.notedAt = -Infinity;
    }
  }

  /**
   * What the storm did since its last event, in one: its births, its rates, its top command, and how
   * many starts and exits of its processes went unannounced (each child of a fork loop would be two
   * events, thousands a minute).
   */
  private summarize(group: TrackedGroup, spawns: GroupSpawns, facts: SpawnStormFacts, now: number): void {
    const top = facts.repeated[0];
    this.state.emitGroup('spawn-storm-summary', group, now, {
      reason: facts.reason,
      birthsPerMinute: facts.birthsPerMinute,
      repeatsPerMinute: facts.repeatsPerMinute,
      peakBirthsPerMinute: facts.peakBirthsPerMinute,
      members: facts.members,
      births: facts.births,
      birthsSince: facts.births - spawns.birthsAtSummary,
      unseenBirths: facts.unseenBirths,
      repeatedCommand: top?.command ?? null,
      repeatedCount: top?.count ?? null,
      unannounced: spawns.unannounced,
      sinceMs: now - spawns.summarizedAt,
    });
    spawns.summarizedAt = now;
    spawns.birthsAtSummary = facts.births;
    spawns.unannounced = 0;
  }
}

function factsOf(
  spawns: GroupSpawns,
  state: SpawnStormState,
  { perMinute, repeatsPerMinute }: { perMinute: number; repeatsPerMinute: number },
  members: number,
  previous: SpawnStormFacts | null,
): SpawnStormFacts {
  const repeated = spawns.window.topCommands(REPEATED_SHOWN);
  const facts: SpawnStormFacts = {
    reason: state.reason ?? 'birth-rate',
    birthsPerMinute: perMinute,
    repeatsPerMinute,
    peakBirthsPerMinute: Math.max(state.peakPerMinute, perMinute),
    members,
    peakMembers: Math.max(state.peakMembers, members),
    births: spawns.window.total,
    unseenBirths: spawns.window.unseen,
    repeated,
  };
  return previous && sameFacts(previous, facts) ? previous : facts;
}

function sameFacts(a: SpawnStormFacts, b: SpawnStormFacts): boolean {
  return (
    a.reason === b.reason &&
    a.birthsPerMinute === b.birthsPerMinute &&
    a.repeatsPerMinute === b.repeatsPerMinute &&
    a.peakBirthsPerMinute === b.peakBirthsPerMinute &&
    a.members === b.members &&
    a.peakMembers === b.peakMembers &&
    a.births === b.births &&
    a.repeated.length === b.repeated.length &&
    a.repeated.every((r, i) => r.command === b.repeated[i]!.command && r.count === b.repeated[i]!.count)
  );
}
