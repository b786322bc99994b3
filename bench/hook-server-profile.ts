// A CPU profile of the running Corral's hook server in its steady state, for finding where an answer's
// milliseconds go: `unshare --pid --fork --mount-proc --kill-child tini -- npx tsx
// bench/hook-server-profile.ts [population] [calls] [out dir]`. Spawns `population` processes (4,000),
// starts the bundled hook server with --cpu-prof, answers 10 warm-up tool calls, then `calls` (200)
// measured ones shaped as the bench's (a shell that leaves `sleep` behind, then Claude Code's
// PostToolUse), and prints the server's CPU per call (schedstat) and the profile's top self-time entries.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureHookEndpoint } from '../main/core/hooks-setup/hook-endpoint';
import { bundleForNode } from './lib/plain-node';
import { benchEnv, killAllCreatedSync, removeGroups, spawnPopulation } from './lib/populations';
import { percentile } from './lib/stats';
import { httpHookCall } from './lib/http-hook-call';
import { waitUntil } from './lib/wait';

const CHILD = fileURLToPath(new URL('./hook-server-child.ts', import.meta.url));
const WARMUP_CALLS = 10;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function (ms) and total sampled time, from a .cpuprofile. */
function selfTimes(p: Profile): { top: [string, number][]; totalMs: number } {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let totalMs = 0;
  p.samples.forEach((id, i) => {
    const n = byId.get(id)!;
    const f = n.callFrame;
    const file = f.url.split('/').pop() ?? '';
    const key = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
    const ms = (p.timeDeltas[i] ?? 0) / 1000;
    totalMs += ms;
    self.set(key, (self.get(key) ?? 0) + ms);
  });
  return { top: [...self].sort((a, b) => b[1] - a[1]).slice(0, 30), totalMs };
}

async function main(): Promise<void> {
  // Without a profile (--no-profile), the CPU per call is the server's own: the sampler's thread
  // wakes every 100 µs and is counted in the process's schedstat too.
  const profile = !process.argv.includes('--no-profile');
  const [population = 4000, calls = 200] = process.argv.slice(2, 4).map(Number);
  const outDir = process.argv[4]?.startsWith('/')
    ? process.argv[4]
    : mkdtempSync(join(tmpdir(), 'corral-hook-profile-'));
  mkdirSync(outDir, { recursive: true });
  await spawnPopulation(population);
  const data = mkdtempSync(join(tmpdir(), 'corral-hook-profile-data-'));
  const { port, token } = ensureHookEndpoint(data);
  const server = spawn(
    process.execPath,
    [
      ...(profile ? ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', outDir] : []),
      await bundleForNode(CHILD),
      data,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], env: benchEnv({ CORRAL_DATA_DIR: data }) },
  );
  let out = '';
  server.stdout.on('data', (c: Buffer) => (out += c.toString()));
  await waitUntil('the hook server to listen', () => out.startsWith('ready '), 30_000);
  const session = randomUUID();
  const markers = { CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: session };
  const cpu: number[] = [];
  const wait: number[] = [];
  try {
    for (let i = -WARMUP_CALLS; i < calls; i++) {
      const call = await httpHookCall({ pid: server.pid!, port, token }, session, markers, i);
      if (i >= 0) {
        wait.push(call.waitMs);
        cpu.push(call.cpuMs);
      }
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.on('exit', r));
    rmSync(data, { recursive: true, force: true });
  }
  const med = (v: number[]): string => percentile(v, 50).toFixed(2);
  process.stdout.write(
    `${population} processes, ${calls} calls: server CPU per call median ${med(cpu)} ms, p95 ${percentile(cpu, 95).toFixed(2)}; ` +
      `wait median ${med(wait)} ms, p95 ${percentile(wait, 95).toFixed(2)}; load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`,
  );
  if (!profile) return;
  const file = readdirSync(outDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile in ${outDir}`);
  const { top, totalMs } = selfTimes(JSON.parse(readFileSync(join(outDir, file), 'utf8')) as Profile);
  process.stdout.write(`profile ${join(outDir, file)}: ${totalMs.toFixed(0)} ms sampled\n`);
  for (const [name, ms] of top) process.stdout.write(`${ms.toFixed(1).padStart(8)} ms  ${name}\n`);
}

process.on('exit', killAllCreatedSync);
main()
  .catch((err: unknown) => {
    process.stderr.write(
      `hook profile failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exitCode = 1;
  })
  .finally(() => removeGroups().catch(() => undefined));
