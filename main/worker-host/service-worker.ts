// Worker-thread entry: the whole core (sampling, analysis, teardown, storage) runs here, so the
// Electron main thread only receives small messages and never does a table scan itself.
import { parentPort, workerData } from 'node:worker_threads';
import type { Snapshot, TeardownResult } from '../../shared/model';
import type { SettingsUpdate } from '../core/service';
import { answerRequest } from '../core/service-requests';
import { createCorralService } from '../core/create-service';
import { startServiceHooks } from '../hooks/service-hooks';
import type {
  SnapshotDetail,
  WorkerCall,
  WorkerData,
  WorkerMessage,
  WorkerRequest,
} from '../core/worker/worker-protocol';

if (!parentPort) throw new Error('service-worker.ts runs only as a worker thread');
const port = parentPort;
const send = (message: WorkerMessage): void => port.postMessage(message);
const data = (workerData ?? {}) as WorkerData;

const running = createCorralService({
  dataDir: data.dataDir,
  // What a visible window shows decides how often the whole table is swept (show below).
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

// The one view feed (core/view-feed): with no window showing every group, the tray gets its agents-only
// level, sent only when what the tray shows may have changed; a window's view gets every group, and is
// subscribed only while it is visible.
const { feed } = running;
const post = (snapshot: Snapshot): void => send({ kind: 'snapshot', snapshot });
let offAgents: (() => void) | null = null;
let offView: (() => void) | null = null;
const show = (next: SnapshotDetail): void => {
  if (next === 'all') {
    offAgents?.();
    offAgents = null;
    offView ??= service.onSnapshot(post);
  } else {
    offView?.();
    offView = null;
    offAgents ??= feed.agents.subscribe(post);
  }
  running.monitor.setWholeTableWanted(next === 'all');
};
show(detail);

service.onEvent((event) => send({ kind: 'event', event }));
send({ kind: 'ready', snapshot: feed.agents.now(), settings: service.settings() });

/** Answers a request through the one table of service requests; progress and new settings are pushed. */
async function answer(call: WorkerRequest): Promise<unknown> {
  const onProgress = (partial: TeardownResult): void => send({ kind: 'progress', id: call.id, partial });
  const value = await answerRequest(service, call.channel, call.payload, onProgress);
  if (call.channel === 'settings:set') {
    const result = value as SettingsUpdate;
    if (result.ok) send({ kind: 'settings', settings: result.settings });
  }
  return value;
}

port.on('message', (message: WorkerCall) => {
  if (message.kind === 'detail') {
    detail = message.detail;
    show(detail);
    // The tray goes back to agents' groups at once, not at the next refresh.
    if (detail === 'agents') post(feed.agents.now());
    return;
  }
  if (message.kind === 'rebaseline') {
    running.monitor.rebaseline();
    return;
  }
  if (message.kind === 'stop') {
    offAgents?.();
    offView?.();
    void hooks
      .then((server) => server?.close())
      .then(() => running.stop())
      .then(() => {
        send({ kind: 'stopped' });
        port.close();
      });
    return;
  }
  answer(message).then(
    (value) => send({ kind: 'result', id: message.id, ok: true, value }),
    (err: unknown) =>
      send({
        kind: 'result',
        id: message.id,
        ok: false,
        error: err instanceof Error ? err.message : String(err),
      }),
  );
});
