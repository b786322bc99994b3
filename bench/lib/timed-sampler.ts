import type { ExitWatchCoverage, ProcessSampler } from '../../main/core/sampling/process-sampler';
import type { ProcessRecord } from '../../main/core/model/process-record';

export interface CallCost {
  calls: number;
  cpuMs: number;
  wallMs: number;
}

type Step =
  'sampleAll' | 'sampleSome' | 'listPids' | 'childrenOf' | 'newPidsSince' | 'watchExits' | 'exitedWatched';

/**
 * Wraps a sampler to count where the monitor's time goes. Timing is off by default so that the
 * headline figures are taken without the cost of measuring.
 */
export class TimedSampler implements ProcessSampler {
  readonly platform: NodeJS.Platform;
  enabled = false;
  /** Whole-table reads so far, counted whether or not timing is on. */
  sweeps = 0;
  readonly costs: Record<Step, CallCost> = {
    sampleAll: { calls: 0, cpuMs: 0, wallMs: 0 },
    sampleSome: { calls: 0, cpuMs: 0, wallMs: 0 },
    listPids: { calls: 0, cpuMs: 0, wallMs: 0 },
    childrenOf: { calls: 0, cpuMs: 0, wallMs: 0 },
    newPidsSince: { calls: 0, cpuMs: 0, wallMs: 0 },
    watchExits: { calls: 0, cpuMs: 0, wallMs: 0 },
    exitedWatched: { calls: 0, cpuMs: 0, wallMs: 0 },
  };
  readonly childrenOf?: (pid: number) => number[] | null;
  readonly newPidsSince?: (cursor: number | null) => { cursor: number; pids: number[] | null };
  readonly watchExits?: (targets: ReadonlyMap<number, number>) => ExitWatchCoverage;
  readonly exitedWatched?: () => readonly number[];
  readonly waitForExits?: (onExit: () => void) => (() => void) | null;

  constructor(private readonly inner: ProcessSampler) {
    this.platform = inner.platform;
    const children = inner.childrenOf?.bind(inner);
    if (children) this.childrenOf = (pid) => this.time('childrenOf', () => children(pid));
    const newPids = inner.newPidsSince?.bind(inner);
    if (newPids) this.newPidsSince = (cursor) => this.time('newPidsSince', () => newPids(cursor));
    const watchExits = inner.watchExits?.bind(inner);
    if (watchExits) this.watchExits = (targets) => this.time('watchExits', () => watchExits(targets));
    const exited = inner.exitedWatched?.bind(inner);
    if (exited) this.exitedWatched = () => this.time('exitedWatched', () => exited());
    // Waiting happens in a worker thread: nothing of it runs on this one to time.
    const waitForExits = inner.waitForExits?.bind(inner);
    if (waitForExits) this.waitForExits = waitForExits;
  }

  sampleAll(): ProcessRecord[] {
    this.sweeps++;
    return this.time('sampleAll', () => this.inner.sampleAll());
  }

  sampleSome(pids: Iterable<number>): ProcessRecord[] {
    return this.time('sampleSome', () => this.inner.sampleSome(pids));
  }

  listPids(): number[] {
    return this.time('listPids', () => this.inner.listPids());
  }

  close(): void {
    this.inner.close?.();
  }

  reset(): void {
    for (const c of Object.values(this.costs)) Object.assign(c, { calls: 0, cpuMs: 0, wallMs: 0 });
  }

  private time<T>(step: Step, run: () => T): T {
    if (!this.enabled) return run();
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    try {
      return run();
    } finally {
      const c = process.cpuUsage(c0);
      const cost = this.costs[step];
      cost.calls++;
      cost.cpuMs += (c.user + c.system) / 1000;
      cost.wallMs += performance.now() - w0;
    }
  }
}
