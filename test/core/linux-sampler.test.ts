import { readdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { keptFds } from '../../main/core/sampling/linux/kept-fds';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { ProcFileReader } from '../../main/core/sampling/linux/proc-files';
import { readProcStat } from '../support/proc';
import { cleanEnv, spawnGroup } from '../support/spawned-groups';
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

  it('hands back the same record while a process reads the same stat text, and a new one when it changes', async () => {
    const group = spawnGroup('sleep 600 & echo $! > "$DIR/pid"; wait');
    const pid = Number(await group.ready('pid'));
    const s = sampler();
    // Once the sleep has exec'd and gone idle, nothing in its stat moves between reads.
    const first = await waitFor('two reads of the idle sleep alike', () => {
      const a = s.sampleSome([pid])[0];
      return a && a.argv[0] === 'sleep' && s.sampleSome([pid])[0] === a ? a : undefined;
    });
    expect(first.ppid).toBe(group.pid);
    process.kill(group.pid, 'SIGKILL');
    const moved = await waitFor('the sleep reparented', () => {
      const r = s.sampleSome([pid])[0];
      return r && r.ppid !== group.pid ? r : undefined;
    });
    expect(moved).not.toBe(first);
    expect(moved).toMatchObject({ pid, pgid: group.pgid, startKey: first.startKey, argv: ['sleep', '600'] });
    s.close();
  });

  it('reads a zombie first seen as one without its environment or run-queue wait, which it has not', async () => {
    // A fork storm's children are mostly first read as zombies: their environ reads empty (no memory
    // left) and they want no CPU, so neither file is opened for them.
    const group = spawnGroup('sleep 0 & echo $! > "$DIR/pid"; exec sleep 600', {
      env: { ...cleanEnv(), CORRAL_TEST_FIXTURE: 'zombie' },
    });
    const pid = Number(await group.ready('pid'));
    await waitFor('the sleep a zombie', () => readProcStat(pid)?.state === 'Z' || undefined);
    const s = sampler();
    const [zombie] = s.sampleSome([pid]);
    expect(zombie?.state).toBe('Z');
    expect(zombie?.argv).toEqual([]);
    expect(zombie?.markers).toEqual({});
    expect(zombie?.runQueueWaitMs).toBeUndefined();
    // Its parent, alive, is read whole: its environment's marker and its wait.
    const [parent] = s.sampleSome([group.pid]);
    expect(parent?.markers).toEqual({ CORRAL_TEST_FIXTURE: 'zombie' });
    expect(parent?.runQueueWaitMs).toBeTypeOf('number');
    s.close();
  });

  it('sees an idle process reparented when its parent becomes a zombie, though it never ran', async () => {
    // The parent's own parent execs into sleep and never reaps it: killed, it stays a zombie.
    const group = spawnGroup(
      'sh -c \'sleep 600 & echo $! > "$DIR/pid"; echo $$ > "$DIR/shell"; wait\' & exec sleep 600',
    );
    const pid = Number(await group.ready('pid'));
    const shell = Number(await group.ready('shell'));
    const s = sampler();
    const first = await waitFor('two reads of the idle sleep alike', () => {
      const [a] = s.sampleSome([shell, pid]).filter((r) => r.pid === pid);
      const [b] = s.sampleSome([shell, pid]).filter((r) => r.pid === pid);
      return a && a.argv[0] === 'sleep' && a === b ? a : undefined;
    });
    expect(first.ppid).toBe(shell);
    process.kill(shell, 'SIGKILL');
    await waitFor('the shell a zombie', () => readProcStat(shell)?.state === 'Z' || undefined);
    const moved = await waitFor('the sleep read with its new parent', () => {
      const r = s.sampleSome([pid])[0];
      return r && r.ppid !== shell ? r : undefined;
    });
    expect(moved.startKey).toBe(first.startKey);
    s.close();
  });

  it('reads an idle process under a parent whose exit it waits for with one read, and sees it reparented once told', async () => {
    const group = spawnGroup(
      'sh -c \'sleep 600 & echo $! > "$DIR/pid"; echo $$ > "$DIR/shell"; wait\' & exec sleep 600',
    );
    const pid = Number(await group.ready('pid'));
    const shell = Number(await group.ready('shell'));
    const s = sampler();
    let exits = 0;
    const stopWaiting = s.waitForExits(() => exits++);
    expect(stopWaiting).not.toBeNull();
    const first = await waitFor('two reads of the idle sleep alike', () => {
      const [a] = s.sampleSome([shell, pid]).filter((r) => r.pid === pid);
      const [b] = s.sampleSome([shell, pid]).filter((r) => r.pid === pid);
      return a && a.argv[0] === 'sleep' && a === b ? a : undefined;
    });
    const shellStart = s.sampleSome([shell])[0]!.startKey;
    expect(s.watchExits(new Map([[shell, shellStart]]))).toBe('all');
    const reads = vi.spyOn(ProcFileReader.prototype, 'reread');
    try {
      // Its schedstat alone: the parent's stat is not read while the watch waits for its exit.
      expect(s.sampleSome([pid])[0]).toBe(first);
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
    }
    process.kill(shell, 'SIGKILL');
    await waitFor('the exit told', () => exits > 0 || undefined);
    const moved = s.sampleSome([pid])[0];
    expect(moved?.ppid).not.toBe(shell);
    expect(moved?.startKey).toBe(first.startKey);
    s.close();
  });

  it('follows the CPU of a process whose second thread burns it while its first sleeps', async () => {
    // The main thread blocks in a futex wait for good once the worker runs: only the worker runs.
    const script =
      "const w = new (require('node:worker_threads').Worker)('for (;;) {}', { eval: true });" +
      "w.on('online', () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0))";
    const group = spawnGroup(`echo $$ > "$DIR/pid"; exec ${process.execPath} -e "${script}"`);
    const pid = Number(await group.ready('pid'));
    const s = sampler();
    // Read with its parent (this process), as a sweep would: a record is kept only while its parent stands.
    const readWithParent = () => s.sampleSome([process.pid, pid]).find((r) => r.pid === pid);
    // Read past its exec (the pid was written by the shell it replaced), known by its command line: its
    // name is no sign, since Node 24 renames its main thread `MainThread` early in its start-up.
    const before = await waitFor('the node process read', () => {
      const r = readWithParent();
      return r && r.argv[0] === process.execPath ? r : undefined;
    });
    const after = await waitFor('more CPU time read', () => {
      const r = readWithParent();
      return r && (r.cpuTimeMs ?? 0) > (before.cpuTimeMs ?? 0) + 200 ? r : undefined;
    });
    expect(after.startKey).toBe(before.startKey);
    s.close();
  });

  it("leaves the last quarter of the descriptor budget to stat files and the exit watch's pidfds", async () => {
    const group = spawnGroup('sleep 600 & echo $! > "$DIR/pid"; wait');
    const pid = Number(await group.ready('pid'));
    const s = sampler();
    // As if a large table had already taken three quarters of the budget.
    const taken = keptFds.optionalBelow - keptFds.total;
    keptFds.total += taken;
    try {
      const [record] = s.sampleSome([group.pid, pid]).filter((r) => r.pid === pid);
      const afterFirst = keptFds.total;
      s.sampleSome([group.pid, pid]);
      s.sampleSome([group.pid, pid]);
      // No schedstat descriptor was kept: the probe only saves work.
      expect(keptFds.total).toBe(afterFirst);
      expect(s.watchExits(new Map([[pid, record!.startKey]]))).toBe('all');
    } finally {
      s.close();
      keptFds.total -= taken;
    }
  });
});
