import { Worker } from 'node:worker_threads';
import type { MonitorEvent, Settings, Snapshot, TeardownResult } from '../../../shared/model';
import type { CorralService } from '../service';
import { serviceClient, type SendRequest } from '../service-requests';
import { SnapshotPushes } from '../view-feed/snapshot-pushes';
import type { SnapshotDetail, WorkerCall, WorkerData, WorkerMessage } from './worker-protocol';

export interface WorkerBackedService {
  service: CorralService;
  /** 'all' while a window shows every group; 'agents' otherwise, to keep each tick's message small. */
  setSnapshotDetail(detail: SnapshotDetail): void;
  /**
   * The machine slept or the process was starved: start CPU readings afresh (the app calls it on
   * powerMonitor's suspend and resume, main/electron/index.ts).
   */
  rebaseline(): void;
  /**
   * Stops the core and the worker. Resolves even if the worker already died, and within `graceMs`
   * even if it never answers (then the thread is terminated): Quit must not hang.
   */
  stop(graceMs?: number): Promise<void>;
}

/** How long a clean stop may take before the worker thread is terminated. */
export const STOP_GRACE_MS = 3000;

type Pending = {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  onProgress?: (p: TeardownResult) => void;
};

/** Runs the core in a worker thread (service-worker.ts) and presents it as a CorralService here. */
export function startWorkerService(entry: string | URL, data: WorkerData = {}): Promise<WorkerBackedService> {
  // A small young generation: the monitor allocates little per tick, and V8's default nursery would
  // otherwise keep tens of MB resident for nothing (bench: 1 h of history for 1,000 processes).
  const worker = new Worker(entry, { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: 3 } });
  const pending = new Map<number, Pending>();
  const snapshotListeners = new Set<(s: Snapshot) => void>();
  const eventListeners = new Set<(e: MonitorEvent) => void>();
  let nextId = 1;
  let latest: Snapshot | null = null;
  // The worker posts whole snapshots; what changed is computed once, here, for the transports.
  const pushes = new SnapshotPushes();
  let settings: Settings | null = null;
  let stopped: (() => void) | null = null;
  let exited = false;

  const send: SendRequest = (channel, payload, onProgress) =>
    new Promise((resolve, reject) => {
      if (exited) return reject(new Error('the Corral worker has exited'));
      const id = nextId++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onProgress });
      worker.postMessage({ kind: 'call', id, channel, payload } as WorkerCall);
    });

  const service: CorralService = {
    ...serviceClient(send),
    // The service's two synchronous reads: what the worker pushed last (or what the deltas chain on).
    snapshot: () => pushes.latest ?? latest!,
    settings: () => settings!,
    onSnapshot: (listener) => {
      snapshotListeners.add(listener);
      return () => snapshotListeners.delete(listener);
    },
    onSnapshotPush: (listener) => pushes.subscribe(listener),
    onEvent: (listener) => {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
  };

  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.on('exit', (code) => {
      exited = true;
      for (const p of pending.values()) p.reject(new Error(`the Corral worker exited (code ${code})`));
      pending.clear();
      stopped?.();
    });
    worker.on('message', (message: WorkerMessage) => {
      switch (message.kind) {
        case 'ready':
          latest = message.snapshot;
          settings = message.settings;
          resolve({
            service,
            setSnapshotDetail: (detail) =>
              worker.postMessage({ kind: 'detail', detail } satisfies WorkerCall),
            rebaseline: () => {
              if (!exited) worker.postMessage({ kind: 'rebaseline' } satisfies WorkerCall);
            },
            stop: (graceMs = STOP_GRACE_MS) =>
              new Promise<void>((done) => {
                if (exited) return done();
                const timer = setTimeout(() => void worker.terminate(), graceMs);
                stopped = () => {
                  clearTimeout(timer);
                  done();
                };
                worker.postMessage({ kind: 'stop' } satisfies WorkerCall);
              }),
          });
          break;
        case 'snapshot':
          latest = message.snapshot;
          for (const l of snapshotListeners) l(message.snapshot);
          pushes.next(message.snapshot);
          break;
        case 'event':
          for (const l of eventListeners) l(message.event);
          break;
        case 'settings':
          settings = message.settings;
          break;
        case 'progress':
          pending.get(message.id)?.onProgress?.(message.partial);
          break;
        case 'result': {
          const p = pending.get(message.id);
          pending.delete(message.id);
          if (!p) break;
          if (message.ok) p.resolve(message.value);
          else p.reject(new Error(message.error));
          break;
        }
        case 'stopped':
          void worker.terminate();
          break;
      }
    });
  });
}
