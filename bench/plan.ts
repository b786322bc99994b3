// What `npm run bench` runs and for how long: the quick plan (`--quick`) and the full one.

export const quick = process.argv.includes('--quick');
export const SHIPPED_PLAN = quick
  ? {
      warmupSeconds: 10,
      idleWindowSeconds: 15,
      windowSeconds: 15,
      pageWarmupSeconds: 25,
      pageEarlyFromSeconds: 5,
      controlWarmupSeconds: 5,
    }
  : {
      warmupSeconds: 30,
      idleWindowSeconds: 120,
      windowSeconds: 60,
      pageWarmupSeconds: 300,
      pageEarlyFromSeconds: 180,
      controlWarmupSeconds: 60,
    };
export const PLAN = quick
  ? {
      rounds: 5,
      perRound: 5,
      monitorSeconds: 15,
      monitorBusySeconds: 10,
      windowSeconds: 5,
      breakdownSeconds: 5,
      warmupSeconds: 2,
      monitorWarmupSeconds: 10,
      monitorEarlyFromSeconds: 5,
      sweeps: 2,
      trials: 20,
      quietTrials: 3,
      runawayTrials: 2,
      teardownRuns: 3,
      ignoringRuns: 2,
      scrape: { pairs: 2, windowSeconds: 30, scrapeEverySeconds: 15, warmupSeconds: 10, burst: 20 },
    }
  : {
      rounds: 12,
      perRound: 10,
      monitorSeconds: 60,
      monitorBusySeconds: 60,
      windowSeconds: 10,
      breakdownSeconds: 30,
      warmupSeconds: 5,
      // V8's compiles of the 1 Hz code go on for minutes, and its memory reducer runs two full GCs of an
      // idle heap about 107 and 214 s after start, then stops (bench/phases/monitor-cost-process.ts). The
      // first scheduled full sweep (poll 300) is behind it too; later ones are timed apart.
      monitorWarmupSeconds: 330,
      monitorEarlyFromSeconds: 30,
      sweeps: 5,
      trials: 30,
      quietTrials: 10,
      runawayTrials: 5,
      teardownRuns: 5,
      ignoringRuns: 5,
      scrape: { pairs: 4, windowSeconds: 60, scrapeEverySeconds: 15, warmupSeconds: 30, burst: 50 },
    };
export const POPULATIONS = [100, 1000, 4000];
export const TARGET_POPULATION = 1000;
export const TEARDOWN_SIZE = 1000;
export const IGNORING_SIZE = 1000;
export const GRACE_MS = 500;
