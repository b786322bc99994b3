import { describe, expect, it } from 'vitest';
import { keptFds } from '../../main/core/sampling/linux/kept-fds';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { lastPidOf } from '../../main/core/sampling/linux/pid-counter';
import { spawnGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const sampler = () => new LinuxSampler({ markerKeys: new Set() });

/** A group whose leader holds two children; each pid is written to a ready file. */
async function family(): Promise<{ pgid: number; leader: number; first: number; second: number }> {
  const group = spawnGroup(
    'sleep 600 & echo $! > "$DIR/first"; sleep 600 & echo $! > "$DIR/second"; echo $$ > "$DIR/leader"; exec sleep 600',
  );
  return {
    pgid: group.pgid,
    leader: Number(await group.ready('leader')),
    first: Number(await group.ready('first')),
    second: Number(await group.ready('second')),
  };
}

const targetsOf = (s: LinuxSampler, pids: number[]): Map<number, number> =>
  new Map(s.sampleSome(pids).map((r) => [r.pid, r.startKey]));

describe('exit watch through pidfds (LinuxSampler.watchExits)', () => {
  it('reports nothing while the followed processes live, then exactly the one that exited', async () => {
    const f = await family();
    const s = sampler();
    expect(s.watchExits(targetsOf(s, [f.leader, f.first, f.second]))).toBe('all');
    expect(s.exitedWatched()).toEqual([]);
    process.kill(f.first, 'SIGKILL');
    // Its parent never reaps it: the pidfd reports the exit of a zombie too.
    const exited = await waitFor('the killed child reported', () => {
      const now = s.exitedWatched();
      return now.length > 0 ? now : undefined;
    });
    expect(exited).toEqual([f.first]);
    expect(s.exitedWatched()).toEqual([]);
    s.close();
  });

  it('reports at once a target whose pid no longer holds the process asked for, and does not follow it', async () => {
    const f = await family();
    const s = sampler();
    const start = keptFds.total;
    const targets = targetsOf(s, [f.leader]);
    // The same pid with another start time: what a reused pid looks like.
    targets.set(f.second, (targetsOf(s, [f.second]).get(f.second) ?? 0) + 1);
    // Reading the two kept their stat files open; what watching adds is counted from here.
    const withStatFds = keptFds.total;
    s.watchExits(targets);
    expect(s.exitedWatched()).toEqual([f.second]);
    expect(s.exitedWatched()).toEqual([]);
    // The leader's pidfd is kept (one descriptor), the mismatched one was closed.
    expect(keptFds.total - withStatFds).toBe(1);
    s.close();
    expect(keptFds.total).toBeLessThanOrEqual(start);
  });

  it('drops processes no longer asked for, and releases every descriptor on close', async () => {
    const f = await family();
    const s = sampler();
    // Read twice: a second read keeps a schedstat descriptor beside stat's for an idle child (schedstat-probe).
    s.sampleSome([f.leader, f.first]);
    s.sampleSome([f.leader, f.first]);
    const withStatFds = keptFds.total;
    s.watchExits(targetsOf(s, [f.leader, f.first]));
    expect(keptFds.total).toBe(withStatFds + 2);
    s.watchExits(targetsOf(s, [f.leader]));
    expect(keptFds.total).toBe(withStatFds + 1);
    // No longer followed: its exit is not reported.
    process.kill(f.first, 'SIGKILL');
    await waitFor('the child to be a zombie', () => s.sampleSome([f.first])[0]?.state === 'Z');
    expect(s.exitedWatched()).toEqual([]);
    s.close();
    expect(keptFds.total).toBeLessThan(withStatFds);
  });
});

describe("lastPidOf: the kernel's last-pid counter from /proc/loadavg", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it.each([
    ['0.00 0.01 0.05 1/79 31036\n', 31036],
    ['0.00 0.01 0.05 1/79 7', 7],
    ['0.00 0.01 0.05 1/79 31036  \n', 31036],
  ])('reads %j as %d', (text, pid) => {
    const b = bytes(text);
    expect(lastPidOf(b, b.length)).toBe(pid);
  });
  it.each(['', '\n', '0.00 0.01 0.05 1/79 x31036', '0.00 0.01 0.05 1/79 12345678901'])(
    'refuses %j',
    (text) => {
      const b = bytes(text);
      expect(lastPidOf(b, b.length)).toBe(-1);
    },
  );
});
