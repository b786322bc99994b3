// Run by bench/phases/detection-latency.ts, bundled to plain JavaScript (bench/lib/plain-node.ts) and
// started with `node`: a Monitor wired as the app wires it (monitor-harness) in a process of its own, as
// `corral watch` and `serve` run it (the desktop runs it in a worker thread, with a heap of its own too).
// The moment each `orphaned` event reaches a listener is taken here, so the bench's own work (its heap,
// its garbage collections, its event loop) never delays the monitor it measures.
// stdout: {"ready":true} once the first poll ran, then {"orphaned":<pid>,"at":<Date.now()>} per event
//         (and {"runaway":<pid>,"at":…} per runaway event),
//         {"miss":…} per describe request, {"errors":…} after stdin ends, before it exits.
// stdin:  {"describe":{"child":<pid>,"wrapper":<pid>}}; end of stdin stops the monitor.
import { createInterface } from 'node:readline';
import { startMonitor } from './lib/monitor-harness';
import type { Monitor } from '../main/core/monitor/monitor';
import type { Miss } from './phases/detection-latency';

const send = (msg: unknown): void => {
  process.stdout.write(`${JSON.stringify(msg)}\n`);
};

function describeMiss(monitor: Monitor, child: number, wrapper: number): Miss {
  let tracked: Miss['tracked'] = null;
  for (const p of monitor.trackedProcesses()) {
    if (p.record.pid !== child) continue;
    tracked = {
      ppid: p.record.ppid,
      pgid: p.record.pgid,
      state: p.record.state,
      attributed: p.attribution !== null,
      originalPpid: p.lineage?.originalPpid ?? null,
      orphanedAt: p.orphanedAt,
      exitedAt: p.exitedAt,
      firstSeenAt: p.firstSeenAt,
    };
  }
  return { child, wrapper, tracked, monitorErrors: { ...monitor.errors } };
}

const harness = startMonitor();
const monitor = harness.monitor;
const reported = new Set<number>();
monitor.onEvent((e) => {
  if (e.type === 'runaway') send({ runaway: e.pid, at: Date.now() });
  if (e.type !== 'orphaned' || reported.has(e.pid)) return;
  reported.add(e.pid);
  send({ orphaned: e.pid, at: Date.now() });
});
createInterface({ input: process.stdin })
  .on('line', (line) => {
    const { describe } = JSON.parse(line) as { describe?: { child: number; wrapper: number } };
    if (describe) send({ miss: describeMiss(monitor, describe.child, describe.wrapper) });
  })
  .on('close', () => {
    send({ errors: monitor.errors });
    harness.stop();
  });
send({ ready: true });
