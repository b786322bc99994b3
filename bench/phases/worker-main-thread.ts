import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { startWorkerService } from '../../main/core/worker/worker-service';
import { sleep } from '../lib/wait';

const ENTRY = fileURLToPath(new URL('../../out/main/service-worker.js', import.meta.url));

export interface WorkerMainThread {
  /** Why it was not measured, when it was not. */
  missing?: string;
  ticks: number;
  /** Main-thread busy time (event-loop utilization) over the window, per snapshot the worker pushed. */
  activeMsPerTick: number;
}

/**
 * The desktop app's arrangement: the core in a worker thread (the built service-worker.js), this thread
 * only receiving its pushes as the tray does. Measures what each tick costs this thread.
 */
export async function measureWorkerMainThread(seconds: number): Promise<WorkerMainThread> {
  if (!existsSync(ENTRY)) {
    return {
      missing: 'out/main/service-worker.js not built (npm run build)',
      ticks: 0,
      activeMsPerTick: NaN,
    };
  }
  const running = await startWorkerService(ENTRY, {
    dataDir: mkdtempSync(join(tmpdir(), 'corral-bench-worker-')),
  });
  try {
    let ticks = 0;
    running.service.onSnapshot(() => ticks++);
    await sleep(5000);
    const ticksBefore = ticks;
    const elu = performance.eventLoopUtilization();
    await sleep(seconds * 1000);
    const used = performance.eventLoopUtilization(elu);
    const measured = ticks - ticksBefore;
    return { ticks: measured, activeMsPerTick: measured > 0 ? used.active / measured : NaN };
  } finally {
    await running.stop();
  }
}
