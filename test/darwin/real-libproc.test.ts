import { execFileSync } from 'node:child_process';
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentMatcher } from '../../main/core/analysis/agent-matcher';
import { attribute } from '../../main/core/analysis/attribution';
import { BUILTIN_SIGNATURES } from '../../main/core/analysis/signatures';
import { DarwinSampler } from '../../main/core/sampling/darwin/darwin-sampler';
import { loadLibSystem } from '../../main/core/sampling/darwin/libsystem';
import { FakeAgent } from '../support/fake-agent';
import { removeCreatedGroups, spawnGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

// Runs only on a real Mac (the CI's macos-latest and Intel runners): the sampler against the real
// libproc and sysctl, checked against ps(1) for the same fake agent tree the Linux tests use.
const onMac = process.platform === 'darwin';
const matcher = new AgentMatcher(BUILTIN_SIGNATURES);

interface PsRow {
  pid: number;
  ppid: number;
  pgid: number;
  ucomm: string;
}

function ps(): Map<number, PsRow> {
  const out = execFileSync('ps', ['-axo', 'pid=,ppid=,pgid=,sess=,ucomm='], { encoding: 'utf8' });
  const rows = new Map<number, PsRow>();
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+\S+\s+(.*)$/.exec(line);
    if (m)
      rows.set(Number(m[1]), {
        pid: Number(m[1]),
        ppid: Number(m[2]),
        pgid: Number(m[3]),
        ucomm: m[4]!.trim(),
      });
  }
  return rows;
}

afterAll(removeCreatedGroups);

describe.runIf(onMac)('DarwinSampler on the real libproc', () => {
  it('reads kern.argmax and hw.tbfrequency as xnu reports them', () => {
    const lib = loadLibSystem();
    const argmax = Buffer.alloc(4);
    expect(lib.sysctl(Int32Array.of(1, 8), argmax)).toBe(4);
    expect(argmax.readInt32LE(0)).toBe(1024 * 1024);
    const hz = Buffer.alloc(8);
    expect(lib.sysctlByName('hw.tbfrequency', hz)).toBe(8);
    // 24 MHz on Apple silicon, 1 GHz on Intel.
    expect([24_000_000n, 1_000_000_000n]).toContain(hz.readBigUInt64LE(0));
    // One byte more than ARG_MAX after the argc int: refused, as sysctl_procargsx does.
    expect(lib.sysctl(Int32Array.of(1, 49, process.pid), Buffer.alloc(1024 * 1024 + 5))).toBe(-1);
  });

  it('sees a fake agent tree exactly as ps does, argv and attribution included', async () => {
    const agent = await FakeAgent.start();
    const call = await agent.toolCall('sleep 600 & sleep 601');
    const sampler = new DarwinSampler({ markerKeys: matcher.markerKeys });
    const records = await waitFor('the tool call and both sleeps sampled', () => {
      const all = sampler.sampleAll();
      const mine = all.filter((r) => r.pgid === call.pid);
      return mine.length >= 3 ? all : undefined;
    });
    const table = ps();
    const tree = records.filter((r) => r.pid === agent.pid || r.pgid === call.pid);
    for (const r of tree) {
      const row = table.get(r.pid);
      expect(row, `ps lists ${r.pid}`).toBeDefined();
      expect({ pid: r.pid, ppid: r.ppid, pgid: r.pgid, ucomm: r.name.slice(0, 16) }).toEqual(row);
    }
    const wrapper = tree.find((r) => r.pid === call.pid)!;
    expect(wrapper.sid).toBe(call.pid); // detached: its own session
    expect(wrapper.argv).toEqual(['/bin/bash', '-c', 'sleep 600 & sleep 601']);
    expect(wrapper.cpuTimeMs).not.toBeNull();
    expect(wrapper.rssBytes).toBeGreaterThan(0);
    expect(wrapper.footprintBytes).toBeGreaterThan(0);

    const attributions = attribute(records, matcher);
    for (const r of tree.filter((x) => x.pgid === call.pid))
      expect(attributions.get(r.pid)).toMatchObject({ agent: 'claude-code', isAgent: false });

    // launchd is root's: listed, with CPU and memory unknown rather than 0 (unless the runner is root).
    const launchd = records.find((r) => r.pid === 1);
    expect(launchd).toBeDefined();
    if (process.getuid?.() !== 0)
      expect(launchd).toMatchObject({ cpuTimeMs: null, rssBytes: null, argv: [] });
  });

  it('reads the cwd (PROC_PIDVNODEPATHINFO) and listening sockets (PROC_PIDFDSOCKETINFO) ps-free', async () => {
    // A TCP listener and a bound UDP socket on loopback, in the fixture's own directory.
    const server = [
      'import os, socket',
      't = socket.socket(); t.bind(("127.0.0.1", 0)); t.listen()',
      'u = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM); u.bind(("::1", 0))',
      'open("ports.tmp", "w").write("%d %d" % (t.getsockname()[1], u.getsockname()[1]))',
      'os.rename("ports.tmp", "ports")',
      'import time; time.sleep(600)',
    ].join('\n');
    const group = spawnGroup(`cd "$DIR" && exec python3 -c '${server}'`);
    const [tcp = 0, udp = 0] = (await group.ready('ports')).split(' ').map(Number);
    const sampler = new DarwinSampler({ markerKeys: matcher.markerKeys });
    // The kernel names the directory by its real path (/private/var/… for /var/…).
    expect(sampler.readCwd([group.pid]).get(group.pid)).toBe(realpathSync(group.dir));
    expect(sampler.listeningPorts([group.pid]).get(group.pid)).toEqual(
      [
        { protocol: 'tcp', address: '127.0.0.1', port: tcp },
        { protocol: 'udp6', address: '::1', port: udp },
      ].sort((a, b) => a.port - b.port),
    );
    // launchd is root's: refused (EPERM) unless the runner is root.
    if (process.getuid?.() !== 0) {
      expect(sampler.readCwd([1]).get(1)).toBeNull();
      expect(sampler.listeningPorts([1]).has(1)).toBe(false);
    }
    process.kill(-group.pgid, 'SIGKILL');
  });

  it('hears a followed process exit through kqueue EVFILT_PROC', async () => {
    const group = spawnGroup('echo $$ > "$DIR/pid"; exec sleep 600');
    const pid = Number(await group.ready('pid'));
    const sampler = new DarwinSampler({ markerKeys: matcher.markerKeys });
    const [record] = sampler.sampleSome([pid]);
    expect(sampler.watchExits(new Map([[pid, record!.startKey]]))).toBe('all');
    expect(sampler.exitedWatched()).toEqual([]);
    process.kill(-group.pgid, 'SIGKILL');
    expect(
      await waitFor('the exit reported', () => (sampler.exitedWatched().includes(pid) ? true : undefined)),
    ).toBe(true);
    sampler.close();
  });

  it('waits in a thread on the kqueue and hears a followed shell fork (NOTE_FORK) and exit', async () => {
    // The shell blocks on a FIFO (no fork meanwhile), then starts a sleep and waits for it.
    const group = spawnGroup(
      'mkfifo "$DIR/go"; echo $$ > "$DIR/pid"; read x < "$DIR/go"; sleep 600 & echo $! > "$DIR/sleep"; wait',
    );
    const pid = Number(await group.ready('pid'));
    const sampler = new DarwinSampler({ markerKeys: matcher.markerKeys });
    let signals = 0;
    const stop = sampler.waitForExits(() => signals++);
    expect(stop).not.toBeNull();
    const [record] = sampler.sampleSome([pid]);
    expect(sampler.watchExits(new Map([[pid, record!.startKey]]))).toBe('all');
    // Followed just now: counted as forked once, for what it forked before.
    expect(sampler.forkedWatched()).toEqual([pid]);
    await waitFor('the thread waiting', () => sampler.exitWatchState.waitingInThread);

    const before = signals;
    writeFileSync(join(group.dir, 'go'), 'go\n');
    const sleepPid = Number(await group.ready('sleep'));
    await waitFor('the fork signalled', () => signals > before);
    expect(sampler.forkedWatched()).toEqual([pid]);
    expect(sampler.childrenOf(pid)).toContain(sleepPid);

    const beforeExit = signals;
    process.kill(sleepPid, 'SIGKILL');
    await waitFor('the exit signalled', () => signals > beforeExit);
    expect(sampler.exitedWatched()).toEqual([pid]);
    stop!();
    await sampler.exitWatchState.stopped;
    sampler.close();
  });
});
