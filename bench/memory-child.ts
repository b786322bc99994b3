// Run by bench/phases/memory.ts as `node --expose-gc --import tsx bench/memory-child.ts <hours> <processes>`.
// Feeds a Monitor `hours` of 1 Hz samples of a synthetic table with an injected clock, then prints the
// growth of resident set and heap as one JSON line.
import { DEFAULT_SETTINGS } from '../main/core/config/defaults';
import { Monitor } from '../main/core/monitor/monitor';
import { matcherFor } from '../main/core/analysis/signatures';
import { SyntheticSampler } from './lib/synthetic-sampler';

const gc = (globalThis as { gc?: () => void }).gc;

function measure(): {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
} {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return {
    rss: m.rss,
    heapTotal: m.heapTotal,
    heapUsed: m.heapUsed,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
  };
}

const hours = Number(process.argv[2] ?? 1);
const processes = Number(process.argv[3] ?? 1000);
const perGroup = 20;
const toolCalls = Math.ceil(processes / perGroup);

const before = measure();
let now = Date.UTC(2025, 0, 1);
const sampler = new SyntheticSampler(toolCalls, perGroup, now - 60_000);
const monitor = new Monitor({
  sampler,
  matcher: matcherFor(DEFAULT_SETTINGS),
  settings: DEFAULT_SETTINGS,
  now: () => now,
});
const started = performance.now();
const samples = Math.round(hours * 3600);
for (let i = 0; i < samples; i++) {
  monitor.poll();
  now += 1000;
  sampler.advance(1000);
}
const seconds = (performance.now() - started) / 1000;
const after = measure();

let historyBytes = 0;
let withHistory = 0;
let points = 0;
for (const p of monitor.trackedProcesses()) {
  if (!p.history) continue;
  withHistory++;
  historyBytes += p.history.byteLength;
  points += p.history.points().length;
}
process.stdout.write(
  `${JSON.stringify({
    gcExposed: gc !== undefined,
    samples,
    processes: sampler.size,
    withHistory,
    historyPoints: points,
    historyBytes,
    simulateSeconds: seconds,
    before,
    after,
  })}\n`,
);
