import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { Monitor } from '../../main/core/monitor/monitor';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { matcherFor } from '../../main/core/snapshot/one-shot-snapshot';
import { LaidOutProc } from '../support/laid-out-proc';

// A /proc laid out in files: on the real one, a run that reads nothing cannot be had on demand (any
// process on the machine that forks moves the pid counter, and the next run reads the new pid).
const NEVER = 600_000;
const settings = { ...DEFAULT_SETTINGS, pollIntervalMs: NEVER };
const matcher = matcherFor(settings);

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.splice(0)) c();
});

function monitorOn(proc: LaidOutProc): Monitor {
  const sampler = new LinuxSampler({ markerKeys: matcher.markerKeys }, proc.root);
  const monitor = new Monitor({
    sampler,
    matcher,
    settings,
    watchIntervalMs: NEVER,
    idleWatchIntervalMs: NEVER,
    fullSweepEvery: 100,
  });
  cleanup.push(() => {
    monitor.stop();
    sampler.close();
  });
  return monitor;
}

/** A /proc with one shell in it, the last pid allocated. */
function laidOutShell(): LaidOutProc {
  const proc = new LaidOutProc();
  cleanup.push(() => proc.remove());
  proc.addProcess(100, 'bash', { cmdline: 'bash\0' });
  proc.setLastPid(100);
  return proc;
}

/** Polls until a poll reads nothing (the first looks re-read what the sweep listed). */
function pollUntilQuiet(monitor: Monitor): number {
  for (let i = 0; i < 5; i++) {
    const before = monitor.viewVersion;
    monitor.poll();
    if (monitor.viewVersion === before) return before;
  }
  throw new Error('every poll read something');
}

describe("the monitor's view version", () => {
  it('stands still while polls read nothing, and moves when a process is born', () => {
    const proc = laidOutShell();
    const monitor = monitorOn(proc);
    const start = monitor.viewVersion;
    monitor.poll();
    expect(monitor.viewVersion).toBeGreaterThan(start);
    const quiet = pollUntilQuiet(monitor);
    monitor.poll();
    expect(monitor.viewVersion).toBe(quiet);

    proc.addProcess(101, 'sleep', { cmdline: 'sleep\u0000600\u0000' });
    proc.setLastPid(101);
    monitor.poll();
    expect(monitor.viewVersion).toBeGreaterThan(quiet);
  });

  it('moves when settings change, with nothing read', () => {
    const proc = laidOutShell();
    const monitor = monitorOn(proc);
    monitor.poll();
    const quiet = pollUntilQuiet(monitor);
    monitor.updateSettings({ ...settings, runaway: { ...settings.runaway } });
    expect(monitor.viewVersion).toBeGreaterThan(quiet);
  });
});
