import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HOOK_MARKER_KEYS } from '../../main/core/hooks-setup/hook-agents';
import { HookProcReader } from '../../main/core/sampling/linux/hook-proc-reader';
import { readPidMax } from '../../main/core/sampling/linux/pid-counter';
import { recordsSinceStart } from '../../main/hooks/pids-since-start';
import { cleanEnv, trackGroup } from '../support/spawned-groups';

function startKeyOf(pid: number): number {
  const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[19]);
}

/** A pid allocated after `pid` and freed again: a hole the walk steps over. */
async function leaveAHoleAfter(pid: number): Promise<void> {
  const child = spawn('/bin/true');
  await new Promise((r) => child.on('close', r));
  expect(child.pid).toBeGreaterThan(pid);
}

describe.runIf(process.platform === 'linux')('the processes started since a tool call began', () => {
  it('reads whole only the processes of the window, and only the stat of the pids it walks past', async () => {
    const groups: number[] = [];
    try {
      await check(groups);
    } finally {
      for (const pgid of groups) process.kill(-pgid, 'SIGKILL');
    }
  });
});

async function check(groups: number[]): Promise<void> {
  const older = spawn('/bin/sleep', ['600'], { detached: true, stdio: 'ignore', env: cleanEnv() });
  trackGroup(older.pid!);
  groups.push(older.pid!);
  // The window begins after `older` started (clock ticks are 10 ms apart).
  await new Promise((r) => setTimeout(r, 50));
  const since = startKeyOf(older.pid!) + 1;
  await leaveAHoleAfter(older.pid!);
  const newer = spawn('/bin/sleep', ['600'], { detached: true, stdio: 'ignore', env: cleanEnv() });
  trackGroup(newer.pid!);
  groups.push(newer.pid!);
  await leaveAHoleAfter(newer.pid!);

  const reader = new HookProcReader(HOOK_MARKER_KEYS);
  const readWhole: number[] = [];
  const walked: number[] = [];
  const sampler = {
    newPidsSince: (c: number | null) => reader.newPidsSince(c),
    listPids: () => reader.listPids(),
    sampleSome: (pids: Iterable<number>) => {
      const list = [...pids];
      readWhole.push(...list);
      return reader.sampleSome(list);
    },
    startKeyOf: (pid: number) => {
      walked.push(pid);
      return reader.startKeyOf(pid);
    },
  };
  const records = recordsSinceStart(sampler, since, readPidMax('/proc'));
  const pids = records.map((r) => r.pid);
  expect(pids).toContain(newer.pid!);
  expect(pids).not.toContain(older.pid!);
  expect(records.every((r) => r.startKey >= since)).toBe(true);
  // Nothing older than the window is read whole; the walk stopped at the first older process.
  expect(readWhole.every((pid) => walked.includes(pid))).toBe(true);
  expect(readWhole).not.toContain(older.pid!);
  expect(Math.min(...walked)).toBeGreaterThanOrEqual(older.pid!);
  // The records are the reader's full records.
  expect(records.find((r) => r.pid === newer.pid)!.argv).toEqual(['/bin/sleep', '600']);
}
