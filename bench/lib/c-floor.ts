import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type FloorBinary = { path: string } | { missing: string };

/** Compiles bench/c/<name>.c with the machine's `cc -O2` into a temporary directory. */
export function compileFloor(name: 'fullscan' | 'killfloor' = 'fullscan'): FloorBinary {
  const source = fileURLToPath(new URL(`../c/${name}.c`, import.meta.url));
  const out = join(mkdtempSync(join(tmpdir(), 'corral-bench-')), name);
  const result = spawnSync('cc', ['-O2', '-o', out, source], { encoding: 'utf8' });
  if (result.error)
    return { missing: `no cc (${(result.error as NodeJS.ErrnoException).code ?? result.error.message})` };
  if (result.status !== 0) return { missing: `cc failed: ${result.stderr.trim().split('\n')[0] ?? ''}` };
  return { path: out };
}

export interface FloorIteration {
  cpuMicros: number;
  wallMicros: number;
  processes: number;
}

/** Runs the floor `iterations` times in one process; each line is one full scan's own CPU and wall time. */
export function runFloor(binary: string, iterations: number): FloorIteration[] {
  const result = spawnSync(binary, [String(iterations)], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${binary} exited ${result.status}: ${result.stderr}`);
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => {
      const [cpu, wall, n] = line.split(' ').map(Number) as [number, number, number];
      return { cpuMicros: cpu, wallMicros: wall, processes: n };
    });
}

/**
 * The kernel's floor for a group teardown: ms from kill(-pgid, SIGKILL) until a `size`-process group
 * is gone (reaped), once per round (bench/c/killfloor.c).
 */
export function runKillFloor(binary: string, size: number, rounds: number): number[] {
  const result = spawnSync(binary, [String(size), String(rounds)], { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) throw new Error(`${binary} exited ${result.status}: ${result.stderr}`);
  return result.stdout.trim().split('\n').map(Number);
}
