import { spawnSync } from 'node:child_process';
import { childrenCpuMicros } from './cpu-clock';

/** Runs a command as an agent runs a hook (payload on stdin): its wall time, its processes' CPU, its stdout. */
export function timedCommand(
  argv: readonly string[],
  input: string,
  env: Record<string, string>,
): { ms: number; cpuMs: number; stdout: string } {
  const cpu = childrenCpuMicros();
  const t = performance.now();
  const r = spawnSync(argv[0]!, argv.slice(1), { input, env, encoding: 'utf8' });
  const ms = performance.now() - t;
  const cpuMs = (childrenCpuMicros() - cpu) / 1000;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, cpuMs, stdout: r.stdout };
}
