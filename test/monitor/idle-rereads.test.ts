import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { Monitor } from '../../main/core/monitor/monitor';
import { IDLE_READ_EVERY } from '../../main/core/monitor/process-table';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { matcherFor } from '../../main/core/analysis/signatures';
import { FakeAgent } from '../support/fake-agent';
import { waitFor } from '../support/wait-for';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.splice(0)) c();
});

/**
 * A monitor over the real table, polled by hand, whose sampler records which pids each read asked for.
 * Births elsewhere in the namespace (other test files) are hidden from it, so that its polls are the
 * quiet ones this is about: nothing born, nobody looking, every exit followed by pidfds.
 */
function monitorRecordingReads() {
  const matcher = matcherFor(DEFAULT_SETTINGS);
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
  const monitor = new Monitor({ sampler, matcher, settings: DEFAULT_SETTINGS });
  cleanup.push(() => sampler.close());
  return { monitor, reads };
}

describe("an agent's idle processes", () => {
  // Load-sensitive: failed under load at bbed0b0 too, and once more with the wait for the exec. Not yet
  // understood; retried so that one slow run does not hide the suite.
  it(
    'are re-read one quiet poll in 5 once unchanged for 10 reads, and every poll again once they run',
    { retry: 4 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'corral-idle-'));
      cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
      const go = join(dir, 'go');
      execFileSync('mkfifo', [go]);
      const agent = await FakeAgent.start();
      // The shell waits (idle, on a FIFO) until told to go, then spins; its sleep stays idle throughout.
      const call = await agent.toolCall(
        `sleep 600 & echo $! > ${dir}/sleep; read x < ${go}; while :; do :; done`,
      );
      const sleepPid = Number(await waitFor('the sleep', () => readPid(join(dir, 'sleep'))));
      // `$!` is known as soon as the shell forked: the child may still be inside execve, where its
      // cmdline and environ read empty (and it is not yet anyone's), so the first poll waits for the exec.
      await waitFor("the sleep to have exec'd", () => readCmdline(sleepPid).startsWith('sleep\0'));
      const { monitor, reads } = monitorRecordingReads();
      monitor.poll();
      const agentsProcess = (pid: number) =>
        [...monitor.trackedProcesses()].some((p) => p.record.pid === pid && p.attribution !== null);
      expect(agentsProcess(sleepPid)).toBe(true);
      expect(agentsProcess(call.pid)).toBe(true);

      for (let i = 0; i < 11; i++) monitor.poll();
      reads.length = 0;
      for (let i = 0; i < 4 * IDLE_READ_EVERY; i++) monitor.poll();
      const sleepReads = reads.filter((asked) => asked.has(sleepPid)).length;
      expect(sleepReads).toBe(4);
      expect(reads.length).toBe(4 * IDLE_READ_EVERY);

      writeFileSync(go, 'go\n');
      const tracked = () => [...monitor.trackedProcesses()].find((p) => p.record.pid === call.pid)!;
      const before = tracked().record.cpuTimeMs ?? 0;
      // Polled until a read finds the shell spinning (at most IDLE_READ_EVERY polls after it started)...
      await waitFor('the shell read spinning', () => {
        monitor.poll();
        return (tracked().record.cpuTimeMs ?? 0) > before;
      });
      // ...from then on it is read on every poll, while its sleep still is not.
      reads.length = 0;
      for (let i = 0; i < IDLE_READ_EVERY; i++) monitor.poll();
      expect(reads.every((asked) => asked.has(call.pid))).toBe(true);
      expect(reads.filter((asked) => asked.has(sleepPid)).length).toBe(1);
    },
  );
});

function readCmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1');
  } catch {
    return '';
  }
}

function readPid(path: string): string | null {
  try {
    const text = readFileSync(path, 'utf8').trim();
    return text === '' ? null : text;
  } catch {
    return null;
  }
}
