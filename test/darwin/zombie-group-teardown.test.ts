import { afterEach, describe, expect, it } from 'vitest';
import { replaceGroupKillForTest } from '../../main/core/actions/group-signal';
import { teardown } from '../../main/core/actions/stop-and-record';
import { newSampler, targetFor } from '../actions/group-target';
import { readProcStat } from '../support/proc';
import { spawnGroup, trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { darwinKillpg } from './darwin-killpg';

const sampler = newSampler();
let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

/**
 * A real group whose one member's parent never reaps it: `setsid sleep` started in the background by a
 * shell that then execs `sleep`. Killed, the member stays a zombie, still holding its PGID.
 */
async function unreapedGroup(): Promise<{ pgid: number }> {
  const parent = spawnGroup('setsid sleep 600 & echo $! > "$DIR/member"; exec sleep 600');
  const member = Number(await parent.ready('member'));
  trackGroup(member);
  await waitFor('the member in its own session', () => {
    const s = readProcStat(member);
    return s !== null && s.pgid === member && s.ppid === parent.pid ? true : undefined;
  });
  await waitFor('the parent to exec sleep', () =>
    readProcStat(parent.pid) && sampler.readOne(parent.pid)?.name === 'sleep' ? true : undefined,
  );
  return { pgid: member };
}

// The stand-in reads /proc and the fixture uses setsid(1): Linux only. On a Mac, killpg-zombies.test.ts
// checks the kernel's own answer that this stand-in copies.
describe.skipIf(process.platform !== 'linux')(
  'teardown of a group left with zombies only, under macOS kill(-pgid) rules',
  () => {
    it('the stand-in refuses as xnu does: EPERM for zombies only, ESRCH for no group', async () => {
      const { pgid } = await unreapedGroup();
      process.kill(pgid, 'SIGKILL');
      await waitFor('the member to be a zombie', () =>
        readProcStat(pgid)?.state === 'Z' ? true : undefined,
      );
      expect(() => darwinKillpg(pgid, 0)).toThrow(expect.objectContaining({ code: 'EPERM' }));
      // Linux itself counts the zombie as found.
      expect(() => process.kill(-pgid, 0)).not.toThrow();
      expect(() => darwinKillpg(0x3ffffff0, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    });

    it('a member that became a zombie is not reported as another user’s process', async () => {
      const { pgid } = await unreapedGroup();
      const target = targetFor(sampler, pgid);
      restore = replaceGroupKillForTest(darwinKillpg);

      // SIGTERM reaches the live member (sent); it dies unreaped, and the SIGKILL after the grace finds
      // only a zombie in the PGID, which macOS answers with EPERM.
      const result = await teardown(target, {
        graceMs: 300,
        mode: 'group',
        withEscaped: false,
        dryRun: false,
        sampler,
      });

      expect(result.signals.map((s) => [s.signal, s.result])).toContainEqual(['SIGKILL', 'EPERM']);
      const member = result.processes.find((p) => p.pid === pgid)!;
      expect(member.outcome).not.toBe('not-permitted');
      expect(member.reason ?? '').not.toMatch(/another user/);
      expect(member).toMatchObject({ outcome: 'still-alive', state: 'Z' });
    });
  },
);
