import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Monitor } from '../../main/core/monitor/monitor';
import { LaidOutProc } from '../support/laid-out-proc';
import { laidOutSettings, monitorOnLaidOutProc } from '../support/laid-out-monitor';

// A /proc laid out in files: on the real one, a run that reads nothing cannot be had on demand (any
// process on the machine that forks moves the pid counter, and the next run reads the new pid).
const settings = laidOutSettings;

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.splice(0)) c();
});

const monitorOn = (proc: LaidOutProc, { fullSweepEvery = 100 } = {}): Monitor =>
  monitorOnLaidOutProc(proc, (stop) => cleanup.push(stop), { fullSweepEvery });

/** A /proc with one shell in it, the last pid allocated. */
function laidOutShell(): LaidOutProc {
  const proc = new LaidOutProc();
  cleanup.push(() => proc.remove());
  proc.addProcess(100, 'bash', { cmdline: 'bash\0' });
  proc.setLastPid(100);
  return proc;
}

/** Adds `ticks` to the utime of `pid` in the laid-out stat file (field 14 of proc(5)). */
function addCpuTicks(proc: LaidOutProc, pid: number, ticks: number): void {
  const path = join(proc.root, String(pid), 'stat');
  const text = readFileSync(path, 'latin1');
  const close = text.lastIndexOf(')');
  const fields = text.slice(close + 2).split(' ');
  // Fields after the name start at proc(5)'s field 3, so utime (14) is index 11.
  fields[11] = String(Number(fields[11]) + ticks);
  writeFileSync(path, `${text.slice(0, close + 2)}${fields.join(' ')}`);
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

  it('stands still while sweeps read the same values, and moves when a CPU time changes', () => {
    const proc = laidOutShell();
    const monitor = monitorOn(proc, { fullSweepEvery: 1 });
    // The second reading is the first CPU percentage (the first has nothing to compare with).
    monitor.poll();
    monitor.poll();
    const settled = monitor.viewVersion;
    monitor.poll();
    expect(monitor.viewVersion).toBe(settled);

    addCpuTicks(proc, 100, 50);
    monitor.poll();
    expect(monitor.viewVersion).toBeGreaterThan(settled);
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
