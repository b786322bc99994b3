import { readdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { readProcStat } from '../support/proc';
import { spawnGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const sampler = () => new LinuxSampler({ markerKeys: new Set(['CORRAL_TEST_FIXTURE']) });

describe('LinuxSampler on this machine', () => {
  it('never reports a thread as a process, though /proc/<tid> answers for it', () => {
    const threads = readdirSync(`/proc/${process.pid}/task`)
      .map(Number)
      .filter((tid) => tid !== process.pid);
    expect(threads.length).toBeGreaterThan(0);
    const s = sampler();
    expect(s.sampleSome(threads)).toEqual([]);
    expect(s.sampleSome([process.pid]).map((r) => r.pid)).toEqual([process.pid]);
    expect(s.listPids()).not.toContain(threads[0]);
  });

  it("finds a new process from the kernel's last-pid counter, without listing the table", async () => {
    const s = sampler();
    const first = s.newPidsSince(null);
    expect(first.pids).toBeNull();
    const group = spawnGroup('echo $$ > "$DIR/pid"; exec sleep 600');
    const pid = Number(await group.ready('pid'));
    const next = s.newPidsSince(first.cursor);
    expect(next.pids).toContain(pid);
    const record = s.sampleSome(next.pids!).find((r) => r.pid === pid);
    expect(record).toMatchObject({ pid, pgid: group.pgid, markers: { CORRAL_TEST_FIXTURE: '1' } });
    expect(s.newPidsSince(next.cursor).pids).not.toContain(pid);
  });

  it('sweeps after the first without listing /proc: new processes from the pid counter, gone ones dropped', async () => {
    const s = sampler();
    const old = spawnGroup('echo $$ > "$DIR/pid"; exec sleep 600');
    const oldPid = Number(await old.ready('pid'));
    const listings = vi.spyOn(s, 'listPids');
    expect(s.sampleAll().map((r) => r.pid)).toContain(oldPid);
    expect(listings).toHaveBeenCalledTimes(1);

    const young = spawnGroup('echo $$ > "$DIR/pid"; exec sleep 600');
    const youngPid = Number(await young.ready('pid'));
    process.kill(oldPid, 'SIGKILL');
    await waitFor('the old process reaped', () => readProcStat(oldPid) === null);
    const pids = s.sampleAll().map((r) => r.pid);
    expect(pids).toContain(youngPid);
    expect(pids).not.toContain(oldPid);
    expect(pids).toContain(process.pid);
    expect(listings).toHaveBeenCalledTimes(1);
    s.close();
  });

  it('re-reads a kept descriptor fresh each time, and drops it when its process is gone', async () => {
    const group = spawnGroup('echo $$ > "$DIR/pid"; until false; do :; done');
    const pid = Number(await group.ready('pid'));
    const s = sampler();
    const before = s.sampleSome([pid])[0]!;
    // The same kept descriptor, read again while the loop burns CPU: the time it reports grows.
    expect(before.cpuTimeMs).not.toBeNull();
    const after = await waitFor('a fresh reading with more CPU time', () => {
      const r = s.sampleSome([pid])[0];
      return r && r.cpuTimeMs! > before.cpuTimeMs! ? r : undefined;
    });
    expect(after.startKey).toBe(before.startKey);
    process.kill(-group.pgid, 'SIGKILL');
    await waitFor('the loop to be gone', () => readProcStat(pid) === null);
    expect(s.sampleSome([pid])).toEqual([]);
    s.close();
  });
});
