// Worker-thread entry: the whole core (sampling, analysis, teardown, storage) runs here, so the
// Electron main thread only receives small messages and never does a table scan itself.
import { parentPort, workerData } from 'node:worker_threads';
import type { Snapshot, TeardownResult } from '../../shared/model';
import type { SettingsUpdate } from '../core/service';
import { answerRequest } from '../core/service-requests';
import { createCorralService } from '../core/create-service';
import { startServiceHooks } from '../hooks/service-hooks';
import { TrayFeed } from '../core/worker/tray-feed';
import { onViewTick } from '../core/view-ticks';
import type {
  SnapshotDetail,
  WorkerCall,
  WorkerData,
  WorkerMessage,
  WorkerRequest,
} from '../core/worker/worker-protocol';

if (!parentPort) throw new Error('service-worker.ts runs only as a worker thread');
const port = parentPort;
const post = (message: WorkerMessage): void => port.postMessage(message);
const data = (workerData ?? {}) as WorkerData;

const running = createCorralService({
  dataDir: data.dataDir,
  // What a visible window shows decides how often the whole table is swept (showEverything below).
  wholeTableWhenWatched: false,
  onError: (step, err) => console.error(`corral worker: ${step}:`, err),
});
const { service } = running;
// Agents' hooks are answered here while the app runs, as `corral watch` answers them (cli-service.ts).
const hooks = startServiceHooks(
  running.dataDir,
  (step, err) => console.error(`corral worker: ${step}:`, err),
  running.hookWiring,
);
let detail: SnapshotDetail = 'agents';

// With no window showing every group, the tray gets agents' groups (tray-feed.ts): at once after a run
// that delivered events (a flag came or went), and otherwise every few polls, when it would show
// something new; on the view tick the service's own snapshots hang on (view-ticks.ts). A window's view
// is subscribed only while it is visible.
const TRAY_REFRESH_POLLS = 5;
const tray = new TrayFeed(running);
let pollsSincePost = 0;
const postAgents = (snapshot: Snapshot | null): void => {
  pollsSincePost = 0;
  if (snapshot) post({ kind: 'snapshot', snapshot });
};
const offAgents = onViewTick(running.monitor, (tick) => {
  if (detail !== 'agents') return;
  if (tick === 'events') postAgents(tray.now());
  else if (++pollsSincePost >= TRAY_REFRESH_POLLS) postAgents(tray.refresh());
});
let offView: (() => void) | null = null;
const showEverything = (all: boolean): void => {
  if (all) offView ??= service.onSnapshot((snapshot) => post({ kind: 'snapshot', snapshot }));
  else {
    offView?.();
    offView = null;
  }
  running.monitor.setWholeTableWanted(all);
};

service.onEvent((event) => post({ kind: 'event', event }));
post({ kind: 'ready', snapshot: tray.now(), settings: service.settings() });

/** Answers a request through the one table of service requests; progress and new settings are pushed. */
async function answer(call: WorkerRequest): Promise<unknown> {
  const onProgress = (partial: TeardownResult): void => post({ kind: 'progress', id: call.id, partial });
  const value = await answerRequest(service, call.channel, call.payload, onProgress);
  if (call.channel === 'settings:set') {
    const result = value as SettingsUpdate;
    if (result.ok) post({ kind: 'settings', settings: result.settings });
  }
  return value;
}

port.on('message', (message: WorkerCall) => {
  if (message.kind === 'detail') {
    detail = message.detail;
    showEverything(detail === 'all');
    // The tray goes back to agents' groups at once, not at the next refresh.
    if (detail === 'agents') postAgents(tray.now());
    return;
  }
  if (message.kind === 'rebaseline') {
    running.monitor.rebaseline();
    return;
  }
  if (message.kind === 'stop') {
    offAgents();
    showEverything(false);
    void hooks
      .then((server) => server?.close())
      .then(() => running.stop())
      .then(() => {
        post({ kind: 'stopped' });
        port.close();
      });
    return;
  }
  answer(message).then(
    (value) => post({ kind: 'result', id: message.id, ok: true, value }),
    (err: unknown) =>
      post({
        kind: 'result',
        id: message.id,
        ok: false,
        error: err instanceof Error ? err.message : String(err),
      }),
  );
});
