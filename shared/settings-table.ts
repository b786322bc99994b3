import type { Settings } from './model';

/** One numeric setting: its bounds, whether it must be whole, its unit, and its name in the form. */
export interface NumericSetting {
  min: number;
  max: number;
  integer: boolean;
  unit: 'ms' | 's' | '%' | 'MB' | '/min' | 'processes';
  label: string;
}

/**
 * The numeric settings, declared once: config loading, request validation and the Settings form all
 * check against these bounds (docs/configuration.md documents them).
 */
export const NUMERIC_SETTINGS = {
  pollIntervalMs: { min: 100, max: 60_000, integer: true, unit: 'ms', label: 'Poll interval' },
  quietPollIntervalMs: {
    min: 100,
    max: 60_000,
    integer: true,
    unit: 'ms',
    label: 'Poll interval while quiet',
  },
  cpuPercent: { min: 1, max: 10_000, integer: false, unit: '%', label: 'Runaway threshold' },
  windowSeconds: { min: 0.1, max: 86_400, integer: false, unit: 's', label: 'Runaway window' },
  graceMs: { min: 0, max: 600_000, integer: true, unit: 'ms', label: 'Grace period' },
  groupMegabytes: { min: 1, max: 16_777_216, integer: false, unit: 'MB', label: 'Memory threshold' },
  memoryWindowSeconds: { min: 0.1, max: 86_400, integer: false, unit: 's', label: 'Memory window' },
  birthsPerMinute: {
    min: 1,
    max: 10_000_000,
    integer: false,
    unit: '/min',
    label: 'Spawn storm: processes a minute',
  },
  repeatsPerMinute: {
    min: 1,
    max: 10_000_000,
    integer: false,
    unit: '/min',
    label: 'Spawn storm: one command a minute',
  },
  spawnWindowSeconds: { min: 0.1, max: 86_400, integer: false, unit: 's', label: 'Spawn storm window' },
  spawnMembers: {
    min: 2,
    max: 1_000_000,
    integer: true,
    unit: 'processes',
    label: 'Spawn storm: live members',
  },
} as const satisfies Record<string, NumericSetting>;

/**
 * Twice the default poll interval: on the bench's 2-core VM a wake-up a second was most of the quiet
 * monitor's cost (bench/RESULTS.md), and exits still wake a look at once.
 */
export const DEFAULT_QUIET_POLL_INTERVAL_MS = 2000;

/** Measured on a 2-core VM (docs/spawn-storms.md): far above `npm ci`, `make -j4` and `tsc -b`. */
export const DEFAULT_SPAWN_STORM: NonNullable<Settings['spawnStorm']> = {
  birthsPerMinute: 100_000,
  repeatsPerMinute: 60,
  windowSeconds: 30,
  members: 100,
};

export const DEFAULT_SETTINGS: Settings = {
  pollIntervalMs: 1000,
  quietPollIntervalMs: DEFAULT_QUIET_POLL_INTERVAL_MS,
  runaway: { cpuPercent: 80, windowSeconds: 30 },
  memory: { groupMegabytes: 2048, windowSeconds: 60 },
  spawnStorm: DEFAULT_SPAWN_STORM,
  policyMode: 'observe',
  policies: [],
  teardown: { graceMs: 3000 },
  notifications: { enabled: true, pausedUntil: null },
  agents: [],
  provenance: { transcripts: true },
  updates: { enabled: true },
};
