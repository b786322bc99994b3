import { afterEach, describe, expect, it } from 'vitest';
import type { MonitorEvent } from '../../shared/model';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { Monitor } from '../../main/core/monitor/monitor';
import { DarwinSampler } from '../../main/core/sampling/darwin/darwin-sampler';
import { matcherFor } from '../../main/core/analysis/signatures';
import { waitFor } from '../support/wait-for';
import { putProcess } from './put-process';
import { FakeLibSystem } from './fake-libsystem';

// The monitor on macOS's sampler, over the stand-in: exits come from the kqueue waited on in a thread,
// so no watch runs between polls, and the exit of a tool call's shell is looked at when it happens.
let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  stop = null;
});

function put(lib: FakeLibSystem, pid: number, ppid: number, comm: string, argv: string[]): void {
  putProcess(lib, { pid, ppid, comm, argv, startSec: 1_764_500_000 });
}

describe('the monitor on the macOS sampler', () => {
  it('waits for exits in a thread: no watch between polls, and an exit is looked at when it happens', async () => {
    const lib = new FakeLibSystem();
    put(lib, 63001, 1, '2.1.220', ['claude']);
    put(lib, 63518, 63001, 'zsh', ['/bin/zsh', '-c', 'sleep 600']);
    const matcher = matcherFor(DEFAULT_SETTINGS);
    const sampler = new DarwinSampler({ markerKeys: matcher.markerKeys }, lib);
    const monitor = new Monitor({ sampler, matcher, settings: DEFAULT_SETTINGS });
    let watches = 0;
    const watch = monitor.watch.bind(monitor);
    monitor.watch = () => {
      watches++;
      watch();
    };
    const events: MonitorEvent[] = [];
    monitor.onEvent((e) => events.push(e));
    monitor.start();
    stop = () => {
      monitor.stop();
      sampler.close();
    };
    const shell = () => [...monitor.trackedProcesses()].find((p) => p.record.pid === 63518);
    expect(shell()?.attribution?.agent).toBe('claude-code');
    await waitFor('the thread waiting on the kqueue', () => sampler.exitWatchState.waitingInThread);
    // Busy (an agent's process was just born), and still no timer for a watch.
    expect(monitor.watchPaceMs).toBeNull();
    expect(watches).toBe(0);

    lib.exit(63518);
    await waitFor('the exit reported', () => events.find((e) => e.type === 'process-exited'));
    expect(watches).toBe(1);
    expect(shell()?.exitedAt).not.toBeNull();
  });

  it("sees a tool call's shell as the agent forks it, and its leftover orphaned when the shell exits", async () => {
    const lib = new FakeLibSystem();
    put(lib, 63001, 1, '2.1.220', ['claude']);
    const matcher = matcherFor(DEFAULT_SETTINGS);
    const sampler = new DarwinSampler({ markerKeys: matcher.markerKeys }, lib);
    const monitor = new Monitor({ sampler, matcher, settings: DEFAULT_SETTINGS });
    const looks: ('poll' | 'watch')[] = [];
    for (const kind of ['poll', 'watch'] as const) {
      const look = monitor[kind].bind(monitor);
      monitor[kind] = () => {
        looks.push(kind);
        look();
      };
    }
    const events: { event: MonitorEvent; by: 'poll' | 'watch' | undefined }[] = [];
    monitor.onEvent((event) => events.push({ event, by: looks.at(-1) }));
    monitor.start();
    stop = () => {
      monitor.stop();
      sampler.close();
    };
    const tracked = (pid: number) => [...monitor.trackedProcesses()].find((p) => p.record.pid === pid);
    await waitFor('the thread waiting on the kqueue', () => sampler.exitWatchState.waitingInThread);

    // Followed, the agent's child list was read once, for what it forked before.
    await waitFor('the first watch', () => looks.includes('watch'));
    put(lib, 63518, 63001, 'zsh', ['/bin/zsh', '-c', 'sleep 600 &']);
    lib.fork(63001);
    await waitFor('the shell seen', () => tracked(63518)?.attribution?.agent === 'claude-code');
    const shellStarted = events.find((e) => e.event.type === 'process-started' && e.event.pid === 63518);
    expect(shellStarted?.by).toBe('watch');
    put(lib, 63521, 63518, 'sleep', ['sleep', '600']);
    lib.fork(63518);
    await waitFor('the sleep seen', () => tracked(63521)?.attribution?.agent === 'claude-code');
    // The shell exits; launchd inherits its sleep.
    put(lib, 63521, 1, 'sleep', ['sleep', '600']);
    lib.exit(63518);
    const orphaned = await waitFor('the sleep orphaned', () =>
      events.find((e) => e.event.type === 'orphaned' && e.event.pid === 63521),
    );
    expect(orphaned.event.agent?.name).toBe('claude-code');
    // Each step was found by a look that the kqueue woke, not by a poll.
    expect(orphaned.by).toBe('watch');
  });
});
