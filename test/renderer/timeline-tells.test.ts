import { describe, expect, it } from 'vitest';
import { labelAnchor } from '../../renderer/src/timeline/TimeAxis';
import { foldShortLived, timelineSummary } from '../../shared/words/timeline-story';
import { T0, makeLane, makeTimeline } from './support/fixtures';

describe('short-lived processes', () => {
  it('fold into one line, the long-lived and the notable kept in start order', () => {
    // A dev server through pyenv: shims that lived under a second, then python.
    const shims = Array.from({ length: 23 }, (_, i) =>
      makeLane({ pid: 600 + i, startedAt: T0 + i * 10, exitedAt: T0 + i * 10 + 200, command: 'pyenv exec' }),
    );
    const python = makeLane({ pid: 700, startedAt: T0 + 400, command: 'python manage.py runserver' });
    const signalled = makeLane({
      pid: 701,
      startedAt: T0 + 500,
      exitedAt: T0 + 600,
      markers: [{ at: T0 + 550, kind: 'signal', label: 'SIGTERM → -500 (sent)' }],
    });
    const longDone = makeLane({ pid: 702, startedAt: T0, exitedAt: T0 + 5_000 });
    const { kept, folded } = foldShortLived([...shims, python, signalled, longDone]);
    expect(kept.map((l) => l.pid)).toEqual([700, 701, 702]);
    expect(folded).toHaveLength(23);
  });

  it('leave a lone short-lived lane as it is', () => {
    const only = makeLane({ pid: 800, startedAt: T0, exitedAt: T0 + 10 });
    expect(foldShortLived([only])).toEqual({ kept: [only], folded: [] });
  });
});

describe('the story when Corral looked late', () => {
  it('says the shell exited and the adoption were not observed', () => {
    const loop = makeLane({
      pid: 658,
      startedAt: T0,
      segments: [
        { from: T0 + 2_000, to: T0 + 2_000, kind: 'running' },
        { from: T0 + 2_000, to: null, kind: 'orphaned' },
        { from: T0 + 3_000, to: null, kind: 'runaway' },
      ],
    });
    const line = timelineSummary(makeTimeline('500:658:1', [loop]), T0 + 9_000);
    expect(line).toContain("its tool call's shell had exited before Corral saw the group");
    expect(line).not.toContain('not observed');
    expect(line).toMatch(/found adopted by PID 1 at .+ \(Corral did not see the adoption itself\)/);
    expect(line).toMatch(/runaway since /);
  });

  it('names who stopped the group and the signals sent', () => {
    const lane = makeLane({
      pid: 500,
      startedAt: T0,
      exitedAt: T0 + 2_000,
      markers: [
        { at: T0 + 1_000, kind: 'signal', label: 'SIGTERM → -500 (sent)', by: 'corral kill (pid 77)' },
        { at: T0 + 1_000, kind: 'signal', label: 'SIGCONT → -500 (sent)', by: 'corral kill (pid 77)' },
        { at: T0 + 1_500, kind: 'signal', label: 'SIGKILL → -500 (ESRCH)', by: 'corral kill (pid 77)' },
      ],
    });
    const line = timelineSummary(makeTimeline('500:500:1', [lane]), T0 + 9_000);
    expect(line).toMatch(
      /stopped by corral kill \(pid 77\) at .+: SIGTERM → -500 \(sent\), SIGKILL → -500 \(ESRCH\)/,
    );
    // The SIGCONT that follows every SIGTERM is kernel detail: on its marker, not in the story (issue 47).
    expect(line).not.toContain('SIGCONT');
    expect(line).not.toContain('all exited');
  });
});

describe('time axis labels', () => {
  it('are drawn inward at the edges, never clipped', () => {
    expect(labelAnchor(5, 1000)).toBe('start');
    expect(labelAnchor(500, 1000)).toBe('middle');
    expect(labelAnchor(990, 1000)).toBe('end');
  });
});
