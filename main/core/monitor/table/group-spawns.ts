import type { SpawnStormFacts } from '../../../../shared/model';
import { BirthWindow } from '../../analysis/birth-window';
import { initialSpawnStormState, type SpawnStormState } from '../../analysis/spawn-storm';

/** While a storm lasts, its incident is written again at most this often (and when it ends). */
export const INCIDENT_EVERY_MS = 5_000;

/** One group's births, live-member readings and storm state. */
export class GroupSpawns {
  readonly window: BirthWindow;
  /** [time, live members] at each poll within the last window (and the one just before it). */
  private readonly members: Array<[number, number]> = [];
  state: SpawnStormState = initialSpawnStormState();
  /** What views show while flagged: a new object whenever a number in it changed. */
  facts: SpawnStormFacts | null = null;
  /** When the incident last got the facts, and when its other changes were last written (incident-glue). */
  notedAt = -Infinity;
  savedAt = -Infinity;
  /** Starts and exits of its processes not announced one by one while it storms, since the last summary. */
  unannounced = 0;
  /** When the storm's last event (the flag or a summary) went out, and its births then. */
  summarizedAt = -Infinity;
  birthsAtSummary = 0;
  /** The live members' reaped children's CPU at the last poll, ms. */
  childCpuMs = 0;

  constructor(since: number) {
    this.window = new BirthWindow(since);
  }

  /** Live members one window ago: the newest reading at or before then; null when none is that old. */
  membersAt(now: number, live: number, windowMs: number): number | null {
    const members = this.members;
    members.push([now, live]);
    while (members.length > 1 && members[1]![0] <= now - windowMs) members.shift();
    const oldest = members[0]!;
    return oldest[0] <= now - windowMs ? oldest[1] : null;
  }
}
