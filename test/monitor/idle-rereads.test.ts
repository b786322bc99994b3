import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MonitorEvent, Settings } from '../../shared/model';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { Monitor } from '../../main/core/monitor/monitor';
import { IDLE_STEPS, idleReadEvery } from '../../main/core/monitor/table/process-table';
import { AT_CLKTCK, auxvValue } from '../../main/core/sampling/linux/auxv';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { matcherFor } from '../../main/core/analysis/signatures';
import { FakeAgent } from '../support/fake-agent';
import { tempDirForTest } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.splice(0)) c();
});

// x86-64 and arm64 system call numbers, as the first field of /proc/<pid>/syscall shows them.
const CLOCK_NANOSLEEP = process.arch === 'arm64' ? 115 : 230;
const OPENAT = process.arch === 'arm64' ? 56 : 257;

/** The system call a process is blocked in (/proc/<pid>/syscall), null while it runs or when unreadable. */
function blockedIn(pid: number): number | null {
  try {
    const first = readFileSync(`/proc/${pid}/syscall`, 'latin1').split(' ')[0]!;
    return /^\d+$/.test(first) ? Number(first) : null;
  } catch {
    return null;
  }
}

/** What a wait on blockedIn saw instead: the process's system call line and its stat. */
function whereIs(pid: number): () => string {
  return () => {
    const read = (file: string): string => {
      try {
        return readFileSync(`/proc/${pid}/${file}`, 'latin1').trim();
      } catch (err) {
        return String(err);
      }
    };
    return `pid ${pid}: syscall ${read('syscall')}; stat ${read('stat')}`;
  };
}

/** utime + stime of a process in clock ticks, read by the test itself. */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * A monitor over the real table, polled by hand, whose sampler records which pids each read asked for.
 * Births elsewhere in the namespace are hidden from it, so that its polls are the quiet ones this is
 * about: nothing born, nobody looking, every exit followed by pidfds.
 */
function monitorRecordingReads(settings: Settings) {
  const matcher = matcherFor(settings);
  const sampler = new LinuxSampler({ markerKeys: matcher.markerKeys });
  const reads: Set<number>[] = [];
  const sampleSome = sampler.sampleSome.bind(sampler);
  sampler.sampleSome = (pids) => {
    const asked = new Set(pids);
    reads.push(asked);
    return sampleSome(asked);
  };
  const newPidsSince = sampler.newPidsSince.bind(sampler);
  sampler.newPidsSince = (cursor) => {
    const fresh = newPidsSince(cursor);
    return cursor === null ? fresh : { cursor: fresh.cursor, pids: [] };
  };
  const monitor = new Monitor({ sampler, matcher, settings });
  const events: MonitorEvent[] = [];
  monitor.onEvent((e) => events.push(e));
  cleanup.push(() => sampler.close());
  return { monitor, reads, events };
}

describe("an agent's idle processes", () => {
  it('are re-read seldomer the longer they stay unchanged: every poll, then one in 5, 10 and 20', () => {
    expect([0, 9, 10, 19, 20, 29, 30, 1_000].map(idleReadEvery)).toEqual([1, 1, 5, 5, 10, 10, 20, 20]);
    expect(IDLE_STEPS.at(-1)).toEqual({ after: 30, every: 20 });
  });

  it('a process read seldom that wakes up spinning is read every poll again, its hot streak dated from when it must have started', async () => {
    const dir = tempDirForTest('corral-idle-');
    const go = join(dir, 'go');
    execFileSync('mkfifo', [go]);
    const agent = await FakeAgent.start();
    // The shell waits (idle, opening a FIFO) until told to go, then spins; its sleep stays idle throughout.
    const call = await agent.toolCall(
      `sleep 600 & echo $! > ${dir}/sleep; read x < ${go}; while :; do :; done`,
    );
    const sleepPid = await waitFor('the sleep', () => readPid(join(dir, 'sleep')));
    // Both settled: blocked in their system calls, so every read finds them unchanged.
    await waitFor('the sleep asleep', () => blockedIn(sleepPid) === CLOCK_NANOSLEEP, {
      explain: whereIs(sleepPid),
    });
    await waitFor('the shell waiting on the FIFO', () => blockedIn(call.pid) === OPENAT, {
      explain: whereIs(call.pid),
    });
    // Runaway at 20 % of a core for 1 s: a hot streak that is dated back is runaway at its first reading.
    const settings: Settings = { ...DEFAULT_SETTINGS, runaway: { cpuPercent: 20, windowSeconds: 1 } };
    const { monitor, reads, events } = monitorRecordingReads(settings);
    monitor.poll();
    const agentsProcess = (pid: number) =>
      [...monitor.trackedProcesses()].some((p) => p.record.pid === pid && p.attribution !== null);
    expect(agentsProcess(sleepPid)).toBe(true);
    expect(agentsProcess(call.pid)).toBe(true);

    // 10 reads at every poll, 10 one poll in 5, 10 one in 10: from then on one in 20.
    for (let i = 0; i < 10 + 50 + 100 + 20; i++) monitor.poll();
    reads.length = 0;
    for (let i = 0; i < 80; i++) monitor.poll();
    expect(reads.length).toBe(80);
    expect(reads.filter((asked) => asked.has(sleepPid)).length).toBe(4);
    expect(reads.filter((asked) => asked.has(call.pid)).length).toBe(4);

    // Read last just now, the shell is told to go, and left unread until it has spun for 1.5 s of CPU.
    await waitFor('a poll that reads the shell', () => {
      reads.length = 0;
      monitor.poll();
      return reads[0]!.has(call.pid);
    });
    writeFileSync(go, 'go\n');
    const ticksPerSecond = auxvValue(AT_CLKTCK) ?? 100;
    const spun = cpuTicks(call.pid);
    await waitFor('the shell to spin 1.5 s', () => cpuTicks(call.pid) - spun >= 1.5 * ticksPerSecond, {
      timeoutMs: 30_000,
    });
    // Polled until a read finds it spinning (at most 20 polls, all at once)...
    const polledBefore = events.length;
    let polls = 0;
    do {
      reads.length = 0;
      monitor.poll();
      polls++;
    } while (!reads[0]!.has(call.pid) && polls < 20);
    expect(reads[0]!.has(call.pid)).toBe(true);
    // ...which finds it runaway at once: it ran 1.5 s of CPU on one thread, so it was hot at least that long.
    const runaway = events.slice(polledBefore).find((e) => e.type === 'runaway' && e.pid === call.pid);
    expect(runaway?.agent?.name).toBe('claude-code');
    // From then on it is read on every poll, while its sleep still is not. (These polls come microseconds
    // apart, where its CPU time, counted in clock ticks, may not move: 9 unchanged reads keep it busy.)
    reads.length = 0;
    for (let i = 0; i < 9; i++) monitor.poll();
    expect(reads.every((asked) => asked.has(call.pid))).toBe(true);
    expect(reads.filter((asked) => asked.has(sleepPid)).length).toBeLessThanOrEqual(1);
  });
});

/** The pid a shell wrote to `path`; undefined (waitFor waits on) until it is there. */
function readPid(path: string): number | undefined {
  try {
    const text = readFileSync(path, 'utf8').trim();
    return /^\d+$/.test(text) ? Number(text) : undefined;
  } catch {
    return undefined;
  }
}
