import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { MonitorEvent } from '../../shared/model';
import { spawnGroup, trackGroup } from './spawned-groups';

// The built CLI, as it ships: signals reach it directly. (tsx's CLI relays them to a child process and,
// when the child does not acknowledge within 30 ms, as on a loaded machine, exits 143 itself.)
const BUILT_CLI = fileURLToPath(new URL('../../out/main/corral.js', import.meta.url));

/** The built `corral watch --json` in a process group of its own (removed after the test), and its events. */
export function startWatchJson(env: Record<string, string>): {
  watcher: ChildProcessByStdio<null, Readable, Readable>;
  events: MonitorEvent[];
} {
  const watcher = spawn(process.execPath, [BUILT_CLI, 'watch', '--json'], {
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  trackGroup(watcher.pid!);
  const events: MonitorEvent[] = [];
  createInterface({ input: watcher.stdout }).on('line', (line) =>
    events.push(JSON.parse(line) as MonitorEvent),
  );
  return { watcher, events };
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
