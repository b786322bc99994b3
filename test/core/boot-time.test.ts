import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { readBootTimeMs } from '../../main/core/sampling/linux/pid-counter';
import { cleanEnv, tempDirForTest } from '../support/spawned-groups';

/** A /proc holding only the two files the boot time is read from. */
function laidOutProc(stat: string, uptime: string | null): string {
  const root = join(tempDirForTest('corral-boot-time-'), 'proc');
  mkdirSync(root);
  writeFileSync(join(root, 'stat'), stat);
  if (uptime !== null) writeFileSync(join(root, 'uptime'), uptime);
  return root;
}

describe('when the kernel booted', () => {
  it('is the wall clock less /proc/uptime, to the hundredth, not btime truncated to its second', () => {
    const root = laidOutProc('cpu  1 2 3\nbtime 1700000000\nprocesses 9\n', '100.50 190.02\n');
    expect(readBootTimeMs(root, () => 1_700_000_100_800)).toBe(1_700_000_000_300);
  });

  it('falls back to btime when /proc/uptime is missing or disagrees with it (the clock set between the reads)', () => {
    const stat = 'btime 1700000000\n';
    expect(readBootTimeMs(laidOutProc(stat, null), () => 1_700_000_100_800)).toBe(1_700_000_000_000);
    expect(readBootTimeMs(laidOutProc(stat, '100.50 0.00\n'), () => 1_700_003_700_800)).toBe(
      1_700_000_000_000,
    );
    expect(readBootTimeMs(laidOutProc(stat, 'garbage\n'), () => 1_700_000_100_800)).toBe(1_700_000_000_000);
  });

  it("dates a real process's start within a clock tick of when it was spawned", async () => {
    const sampler = new LinuxSampler({ markerKeys: new Set() });
    const before = Date.now();
    const child = spawn('sleep', ['5'], { env: cleanEnv(), stdio: 'ignore' });
    const after = Date.now();
    try {
      const record = sampler.readOne(child.pid!);
      expect(record?.pid).toBe(child.pid);
      // A start time counts in clock ticks (10 ms): btime's whole seconds put it up to 1 s early.
      expect(record!.startedAt).toBeGreaterThanOrEqual(before - 20);
      expect(record!.startedAt).toBeLessThanOrEqual(after + 20);
    } finally {
      child.kill('SIGKILL');
      sampler.close();
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
