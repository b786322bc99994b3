import type { Incident } from '../../shared/model';

export interface LeftoverBurn {
  agent: string | null;
  seconds: number;
}

interface PendingBurn extends LeftoverBurn {
  groupId: string;
}

/**
 * CPU-seconds burned by flagged groups, from the incidents' own cpuSeconds, counted once per group.
 *
 * Each incident accumulates the CPU its group's members burned while it was open. A group flagged two
 * ways at once may hold one incident per flag, and each of them measures the same members over the
 * same time: adding them would count one leak once per flag. So the deltas of one group's incidents
 * are merged by taking the largest, never summed; with one incident per leaked group it is that one.
 */
export class LeftoverCpu {
  /** cpuSeconds already counted, by incident id (open incidents only). */
  private counted = new Map<string, number>();
  /** Burns of incidents that closed since the last collect (their last figure comes with the event). */
  private readonly closedBurns: PendingBurn[] = [];

  /** Incidents already open when counting starts (restored from disk): what they burned before is not ours to count. */
  constructor(openAtStart: readonly Incident[]) {
    for (const incident of openAtStart) this.counted.set(incident.id, incident.cpuSeconds);
  }

  closed(incidentId: string, groupId: string, agent: string | null, cpuSeconds: number): void {
    const before = this.counted.get(incidentId) ?? 0;
    this.counted.delete(incidentId);
    this.closedBurns.push({ groupId, agent, seconds: cpuSeconds - before });
  }

  /** What was burned since the previous call: one entry per group. */
  collect(open: readonly Incident[]): LeftoverBurn[] {
    const byGroup = new Map<string, LeftoverBurn>();
    const merge = (groupId: string, agent: string | null, seconds: number): void => {
      if (!(seconds > 0)) return;
      const known = byGroup.get(groupId);
      if (!known) byGroup.set(groupId, { agent, seconds });
      else if (seconds > known.seconds) known.seconds = seconds;
    };
    for (const burn of this.closedBurns) merge(burn.groupId, burn.agent, burn.seconds);
    this.closedBurns.length = 0;
    // Rebuilt from the open list each time, so an id that left it without an event is not kept forever.
    const counted = new Map<string, number>();
    for (const incident of open) {
      merge(incident.groupId, incident.agent, incident.cpuSeconds - (this.counted.get(incident.id) ?? 0));
      counted.set(incident.id, incident.cpuSeconds);
    }
    this.counted = counted;
    return [...byGroup.values()];
  }
}
