import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HOOK_MARKER_KEYS } from '../../main/core/hooks-setup/hook-agents';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { HookProcReader } from '../../main/core/sampling/linux/hook-proc-reader';
import { cleanEnv, trackGroup } from '../support/spawned-groups';

describe.runIf(process.platform === 'linux')("the hook's own /proc reader", () => {
  it('reads the same records as the monitor sampler (so the note names the ids Corral shows)', () => {
    const child = spawn('/bin/sleep', ['600'], {
      detached: true,
      stdio: 'ignore',
      env: cleanEnv({ CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: 'session-for-the-reader' }),
    });
    trackGroup(child.pid!);
    const pids = [child.pid!, process.pid];
    const sampler = new LinuxSampler({ markerKeys: HOOK_MARKER_KEYS });
    const expected = sampler.sampleSome(pids);
    sampler.close();
    const reader = new HookProcReader(HOOK_MARKER_KEYS);
    const actual = reader.sampleSome(pids);
    // Measurements move between the two reads; the hook reads no schedstat (a note needs no demand).
    const identity = (r: (typeof expected)[number]) => {
      const {
        cpuTimeMs: _cpu,
        childCpuTimeMs: _children,
        runQueueWaitMs: _wait,
        rssBytes: _rss,
        state: _state,
        tty: _tty,
        startedAt: _at,
        ...rest
      } = r;
      return rest;
    };
    expect(actual.map(identity)).toEqual(expected.map(identity));
    // Each reader takes the boot time from the wall clock less /proc/uptime, exact to about 10 ms.
    for (const [i, r] of actual.entries())
      expect(Math.abs(r.startedAt - expected[i]!.startedAt)).toBeLessThanOrEqual(20);
    expect(actual[0]!.markers).toEqual({ CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: 'session-for-the-reader' });
    expect(reader.listPids()).toContain(child.pid!);
  });

  it('lists the pids born since a cursor, and skips pids that are gone or not processes', () => {
    const reader = new HookProcReader(HOOK_MARKER_KEYS);
    const { cursor } = reader.newPidsSince(null);
    const child = spawn('/bin/sleep', ['600'], { detached: true, stdio: 'ignore', env: cleanEnv() });
    trackGroup(child.pid!);
    const since = reader.newPidsSince(cursor);
    expect(since.pids).toContain(child.pid!);
    expect(reader.sampleSome([child.pid!, 0x3fffff]).map((r) => r.pid)).toEqual([child.pid!]);
  });
});
