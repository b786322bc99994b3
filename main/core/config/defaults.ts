import type { Settings } from '../../../shared/model';

export const DEFAULT_SETTINGS: Settings = {
  pollIntervalMs: 1000,
  runaway: { cpuPercent: 80, windowSeconds: 30 },
  teardown: { graceMs: 3000 },
  notifications: { enabled: true, pausedUntil: null },
  agents: [],
  provenance: { transcripts: true },
};
