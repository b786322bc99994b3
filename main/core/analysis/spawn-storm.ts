/**
 * Spawn storms: one group starts processes faster than a threshold for a sustained window (a fork loop,
 * a crash-looping command), or its live member count keeps growing past a threshold (children that
 * never exit). Hysteresis like `runaway`, so a group hovering at the line does not flap.
 */
export interface SpawnStormPolicy {
  /** Births a minute, measured over a sliding window (see rateWindowMs). */
  birthsPerMinute: number;
  /**
   * Births a minute of one and the same command line (a loop repeats one; a build's compilers each
   * have their own file's), over the same window.
   */
  repeatsPerMinute: number;
  /** How long the rate must stay above the threshold before the flag; a quarter of it to clear. */
  windowSeconds: number;
  /** Live members past which a still-growing group is flagged. */
  members: number;
}

/**
 * `birth-rate`: too many processes started a minute (a last-resort ceiling); `repeated-command`: a shell
 * loop starting one command line again and again without pause; `member-growth`: too many alive and
 * still growing.
 */
export type SpawnStormReason = 'birth-rate' | 'repeated-command' | 'member-growth';

export interface SpawnStormState {
  /** Since when the rate has been at or above the threshold (not yet active); null otherwise. */
  highSince: number | null;
  /** Since when, while active, the rate and the members have both been below the clear lines. */
  lowSince: number | null;
  active: boolean;
  /** Why it became active (the first reason seen); null while not active. */
  reason: SpawnStormReason | null;
  /** Highest rate (births a minute) and live member count while high or active; 0 otherwise. */
  peakPerMinute: number;
  peakMembers: number;
}

export const initialSpawnStormState = (): SpawnStormState => ({
  highSince: null,
  lowSince: null,
  active: false,
  reason: null,
  peakPerMinute: 0,
  peakMembers: 0,
});

/** Below this fraction of the rate threshold the storm counts as over (runaway's rule: half). */
export const SPAWN_CLEAR_RATE_FRACTION = 0.5;
/** Below this fraction of the member threshold the group counts as shrunk back. */
export const SPAWN_CLEAR_MEMBERS_FRACTION = 0.75;
/** The rate is births over this much of the recent past (the window when shorter), scaled to a minute. */
export const MAX_RATE_WINDOW_MS = 10_000;

export const rateWindowMs = (policy: SpawnStormPolicy): number =>
  Math.min(MAX_RATE_WINDOW_MS, Math.max(1000, policy.windowSeconds * 1000));

/**
 * How many more live members than a window ago make growth: a quarter of the threshold, so a large
 * build holding its jobs steady (members coming and going by a few) is not growing.
 */
export const growthOver = (policy: SpawnStormPolicy): number => Math.max(1, Math.ceil(policy.members / 4));

/** What one poll measured of a group. */
export interface SpawnReading {
  /** Births a minute over the rate window. */
  perMinute: number;
  /**
   * Whether the members' reaped children's CPU (cutime + cstime) grew since the last reading: the kernel's
   * own word that children are still being born and reaped, however few of them were read.
   */
  childCpuGrew?: boolean;
  /**
   * Starts a minute of the busiest shell loop (one shell starting one command line; loops paced by
   * `sleep` left out), over the rate window.
   */
  repeatsPerMinute: number;
  /** Live members now. */
  members: number;
  /** Live members one window ago (the oldest reading within the window); null when not known yet. */
  membersWindowAgo: number | null;
}

/**
 * Enters `birth-rate` (or `repeated-command`) after the rate (or one command line's rate) stayed at or
 * above its threshold for the whole window, and
 * `member-growth` at once when the live members are past their threshold and more than a window ago
 * (the window is in the comparison). Leaves only once the rate is below half its threshold and the
 * members below three quarters of theirs (one command line's rate below half its own too), held for a quarter of the window (at least 2 s).
 */
export function nextSpawnStormState(
  state: SpawnStormState,
  reading: SpawnReading,
  at: number,
  policy: SpawnStormPolicy,
): SpawnStormState {
  const windowMs = policy.windowSeconds * 1000;
  const rateHigh = reading.perMinute >= policy.birthsPerMinute;
  const repeatsHigh = reading.repeatsPerMinute >= policy.repeatsPerMinute;
  const growing =
    reading.members >= policy.members &&
    reading.membersWindowAgo !== null &&
    reading.members - reading.membersWindowAgo >= growthOver(policy);
  const peakPerMinute = Math.max(state.peakPerMinute, reading.perMinute);
  const peakMembers = Math.max(state.peakMembers, reading.members);
  if (!state.active) {
    if (growing)
      return {
        highSince: state.highSince,
        lowSince: null,
        active: true,
        reason: 'member-growth',
        peakPerMinute,
        peakMembers,
      };
    if (!rateHigh && !repeatsHigh)
      return state.highSince === null && state.lowSince === null && state.peakPerMinute === 0
        ? state
        : initialSpawnStormState();
    const highSince = state.highSince ?? at;
    const active = at - highSince >= windowMs;
    return {
      highSince,
      lowSince: null,
      active,
      reason: !active ? null : rateHigh ? 'birth-rate' : 'repeated-command',
      peakPerMinute,
      peakMembers,
    };
  }
  // A flagged loop is over when its births are, not when fewer of them were read: once summarized, its
  // children are counted more than read, and the share of read starts its command has can fall short.
  const stillBorn =
    state.reason === 'repeated-command' &&
    (reading.childCpuGrew === true ||
      reading.perMinute >= policy.repeatsPerMinute * SPAWN_CLEAR_RATE_FRACTION);
  const calm =
    !stillBorn &&
    reading.perMinute < policy.birthsPerMinute * SPAWN_CLEAR_RATE_FRACTION &&
    reading.repeatsPerMinute < policy.repeatsPerMinute * SPAWN_CLEAR_RATE_FRACTION &&
    reading.members < policy.members * SPAWN_CLEAR_MEMBERS_FRACTION;
  if (!calm) return { ...state, lowSince: null, peakPerMinute, peakMembers };
  const lowSince = state.lowSince ?? at;
  const clearAfterMs = Math.max(2000, windowMs / 4);
  return at - lowSince >= clearAfterMs
    ? initialSpawnStormState()
    : { ...state, lowSince, peakPerMinute, peakMembers };
}
