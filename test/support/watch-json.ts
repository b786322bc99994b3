import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { MonitorEvent } from '../../shared/model';
import { spawnGroup, trackGroup } from './spawned-groups';

// The built CLI, as it ships: signals reach it directly. (tsx's CLI relays them to a child process and,
// when the child does not acknowledge within 30 ms, as on a loaded machine, exits 143 itself.)
export const BUILT_CLI = fileURLToPath(new URL('../../out/main/corral.js', import.meta.url));

export interface WatchJson {
  child: ChildProcess;
  /** Every event printed so far, parsed. */
  events: MonitorEvent[];
  /** Everything written on stderr so far. */
  stderr(): string;
}

/**
 * The built `corral watch --json` in a group of its own (removed after the test), its events collected
 * as they come. `wrapper`: a command that execs it (prlimit …), keeping its pid.
 */
export function startWatchJson(env: Record<string, string>, wrapper: readonly string[] = []): WatchJson {
  const [file, ...args] = [...wrapper, process.execPath, BUILT_CLI, 'watch', '--json'];
  const child = spawn(file!, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  trackGroup(child.pid!);
  const events: MonitorEvent[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) =>
    events.push(JSON.parse(line) as MonitorEvent),
  );
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return { child, events, stderr: () => stderr };
}

/**
 * Another program's busy loops, `count` of them, each in a session and process group of its own with no
 * agent's markers (removed by PGID after the test); resolves once all run.
 */
export async function startBusyNeighbours(count: number): Promise<void> {
  const started = Array.from({ length: count }, () =>
    spawnGroup('echo > "$DIR/up"; exec -a corral-busy-neighbour bash -c "while :; do :; done"'),
  );
  for (const n of started) await n.ready('up');
}
