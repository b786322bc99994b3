import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOOK_MARKER_KEYS } from '../../main/core/hooks-setup/hook-agents';
import { HookProcReader } from '../../main/core/sampling/linux/hook-proc-reader';
import { answerHook } from '../../main/hooks/hook-answer';
import { PidCounterReadings } from '../../main/hooks/pid-counter-readings';
import { recordsSinceStart } from '../../main/hooks/pids-since-start';
import { serviceHookContextFactory } from '../../main/hooks/service-hook-context';
import { LaidOutProc } from '../support/laid-out-proc';
import { cleanEnv, trackGroup } from '../support/spawned-groups';
import {
  afterToolPayload,
  lastPid,
  leaveHoles,
  markedLeftover,
  probedPids,
} from '../support/pid-walk-fixtures';
import { waitFor } from '../support/wait-for';

const cleanups: (() => void)[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0)) c();
});

/** The kernel clock in start-time ticks (10 ms: CLK_TCK is 100 on Linux). */
function uptimeTicks(): number {
  return Math.floor(Number(readFileSync('/proc/uptime', 'latin1').split(' ')[0]) * 100);
}

const payload = (session: string, call: number, durationMs: number): string =>
  afterToolPayload(session, `toolu_floor${call}`, durationMs);

describe.runIf(process.platform === 'linux')(
  'the walk for a tool call stops at a pid counter read earlier',
  () => {
    it('does not probe the pids below a reading taken before the call began, and names the same leftover', async () => {
      const data = mkdtempSync(join(tmpdir(), 'corral-floor-'));
      cleanups.push(() => rmSync(data, { recursive: true, force: true }));
      const older = spawn('/bin/sleep', ['600'], { detached: true, stdio: 'ignore', env: cleanEnv() });
      trackGroup(older.pid!);
      cleanups.push(() => process.kill(-older.pid!, 'SIGKILL'));
      // Holes between a live older process and the service's first reading of the counter.
      await leaveHoles(20);
      const holesTop = lastPid();
      const context = serviceHookContextFactory(data)!;
      const readAt = uptimeTicks();
      await waitFor('the next clock tick', () => uptimeTicks() > readAt, { intervalMs: 2 });

      const session = `floor-${process.pid}`;
      // The session's previous call: from its answer on, a new call began after that tick.
      expect(answerHook('claude-code', 'PostToolUse', payload(session, 0, 0), context())).toBe('');

      const leftover = await markedLeftover(session);
      await leaveHoles(5);

      const probed = probedPids();
      const out = answerHook('claude-code', 'PostToolUse', payload(session, 1, 5), context());
      const note = (JSON.parse(out) as { hookSpecificOutput: { additionalContext: string } })
        .hookSpecificOutput.additionalContext;
      expect(note).toContain('Corral: this command left 1 process running');
      expect(note).toContain(`- pid ${leftover} (process group `);
      // The old walk went on down through the holes to `older`, the first live process before the call.
      expect(probed).toContain(leftover);
      expect(Math.min(...probed)).toBeGreaterThan(holesTop);
    });

    it('follows the counter round the wrap at pid_max down to the floor, and reads nothing below it', () => {
      const proc = new LaidOutProc();
      cleanups.push(() => proc.remove());
      const pidMax = 4_194_304;
      const environ = 'CLAUDECODE=1\0CLAUDE_CODE_SESSION_ID=s\0';
      // Every laid-out process has this test process's own start, so all are "new" to the walk.
      for (const pid of [3, pidMax - 2, pidMax - 5])
        proc.addProcess(pid, 'sleep', { cmdline: 'sleep\x00600\x00', environ });
      proc.setLastPid(5);
      const reader = new HookProcReader(HOOK_MARKER_KEYS, proc.root);
      const probed: number[] = [];
      const sampler = {
        newPidsSince: (c: number | null) => reader.newPidsSince(c),
        listPids: () => reader.listPids(),
        sampleSome: (pids: Iterable<number>) => reader.sampleSome(pids),
        startKeyOf: (pid: number) => {
          probed.push(pid);
          return reader.startKeyOf(pid);
        },
      };
      const since = reader.sampleSome([3])[0]!.startKey;
      const records = recordsSinceStart(sampler, since, pidMax, pidMax - 3);
      expect(records.map((r) => r.pid)).toEqual([3, pidMax - 2]);
      expect(probed).toEqual([5, 4, 3, 2, 1, pidMax - 1, pidMax - 2]);
      // A floor equal to the counter now: nothing was allocated since, nothing is read.
      probed.length = 0;
      expect(recordsSinceStart(sampler, since, pidMax, 5)).toEqual([]);
      expect(probed).toEqual([]);
    });
  },
);

describe('the pid counter readings a floor is taken from', () => {
  it('gives the latest reading taken in a tick before the start, never one in the start tick itself', () => {
    const readings = new PidCounterReadings(3000);
    readings.note(100, 1000);
    readings.note(150, 1010);
    readings.note(180, 1010);
    readings.note(200, 1020);
    expect(readings.before(1020, 1020)).toBe(180);
    expect(readings.before(1011, 1020)).toBe(180);
    expect(readings.before(1010, 1020)).toBe(100);
    expect(readings.before(1000, 1020)).toBeNull();
    expect(readings.before(1021, 1020)).toBe(200);
  });

  it('does not use a reading older than its age limit (the pid numbers may have come round since)', () => {
    const readings = new PidCounterReadings(3000);
    readings.note(100, 1000);
    expect(readings.before(2000, 4000)).toBe(100);
    expect(readings.before(2000, 4001)).toBeNull();
  });

  it('keeps the latest readings only, and ignores a counter that could not be read', () => {
    const readings = new PidCounterReadings(1_000_000);
    for (let i = 1; i <= 40; i++) readings.note(i * 10, i);
    readings.note(-1, 41);
    expect(readings.before(41, 41)).toBe(400);
    expect(readings.before(30, 41)).toBe(290);
    // The oldest readings kept are a few before the latest; earlier ones are gone.
    expect(readings.before(3, 41)).toBeNull();
  });
});
