// The one stop path and what it records (actions/stop-and-record.ts), on real process groups: the
// recorder hears of the stop before the first signal and of each signal once, as it is sent.
import { describe, expect, it } from 'vitest';
import { stopAndRecord, type StopRecorder } from '../../main/core/actions/stop-and-record';
import type { GroupView, SignalRecord, TeardownResult } from '../../shared/model';
import { groupMembers, isAlive } from '../support/proc';
import { spawnGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { groupViewFor, newSampler } from './group-target';

const sampler = newSampler();

type Heard =
  | { stopping: string; membersThen: number }
  | { signalled: string; fresh: SignalRecord[]; all: SignalRecord[] };

function listener(): { heard: Heard[]; recorder: StopRecorder } {
  const heard: Heard[] = [];
  return {
    heard,
    recorder: {
      stopping: (group) => heard.push({ stopping: group.id, membersThen: groupMembers(group.pgid).length }),
      signalled: (group, fresh, all) => heard.push({ signalled: group.id, fresh: [...fresh], all: [...all] }),
    },
  };
}

/** A group whose one process ignores SIGTERM (the ignored disposition survives exec), so it takes a SIGKILL. */
async function stubbornGroup(): Promise<{ pgid: number; view: GroupView }> {
  const g = spawnGroup(`trap '' TERM; echo ok > "$DIR/ready"; exec tail -f /dev/null`);
  await g.ready('ready');
  await waitFor("tail to be exec'd", () => sampler.readOne(g.pid)?.name === 'tail');
  return { pgid: g.pgid, view: groupViewFor(sampler, g.pgid) };
}

describe('stopAndRecord (real processes)', () => {
  it('tells the recorder before the first signal, then each signal once, as soon as it is sent', async () => {
    const { pgid, view } = await stubbornGroup();
    const { heard, recorder } = listener();
    const progress: TeardownResult[] = [];

    const outcome = await stopAndRecord(
      { groupId: view.id },
      [view],
      { graceMs: 300, sampler, onProgress: (p) => progress.push(p) },
      recorder,
    );

    if (outcome.refused !== null) throw new Error(`refused: ${outcome.refused.message}`);
    const { result } = outcome;
    expect(result.clean).toBe(true);
    expect(result.processes).toEqual([
      expect.objectContaining({ pid: pgid, outcome: 'killed', endedBy: 'SIGKILL' }),
    ]);
    expect(groupMembers(pgid)).toEqual([]);
    expect(result.signals.map((s) => s.signal)).toEqual(['SIGTERM', 'SIGCONT', 'SIGKILL']);

    // Told first, while the group was still whole.
    expect(heard[0]).toEqual({ stopping: view.id, membersThen: 1 });
    const signalled = heard.slice(1) as Extract<Heard, { signalled: string }>[];
    expect(signalled.every((h) => 'signalled' in h && h.signalled === view.id)).toBe(true);
    // Each signal once, in order; each call's `all` is every signal so far.
    expect(signalled.flatMap((h) => h.fresh)).toEqual(result.signals);
    let sofar: SignalRecord[] = [];
    for (const h of signalled) {
      sofar = [...sofar, ...h.fresh];
      expect(h.all).toEqual(sofar);
    }
    // As sent: the SIGTERM was heard before the SIGKILL went out, not only when the teardown returned.
    expect(signalled[0]!.fresh.map((s) => s.signal)).toEqual(['SIGTERM', 'SIGCONT']);
    expect(signalled.length).toBeGreaterThanOrEqual(2);
    // The caller's progress saw the same signals the recorder heard.
    expect(progress.at(-1)?.signals.map((s) => s.signal)).toEqual(['SIGTERM', 'SIGCONT', 'SIGKILL']);
  });

  it('on a dry run tells the recorder nothing and signals nothing', async () => {
    const { pgid, view } = await stubbornGroup();
    const { heard, recorder } = listener();

    const outcome = await stopAndRecord(
      { groupId: view.id, dryRun: true },
      [view],
      { graceMs: 300, sampler },
      recorder,
    );

    if (outcome.refused !== null) throw new Error(`refused: ${outcome.refused.message}`);
    expect(outcome.result.signals).toEqual([]);
    expect(outcome.result.processes).toEqual([
      expect.objectContaining({ pid: pgid, outcome: 'skipped', reason: 'dry run' }),
    ]);
    expect(heard).toEqual([]);
    expect(isAlive(pgid)).toBe(true);
  });

  it('tells the recorder nothing when the id names no live group', async () => {
    const { pgid, view } = await stubbornGroup();
    const { heard, recorder } = listener();
    const gone = `${pgid + 100000}:${pgid + 100000}:1`;

    const outcome = await stopAndRecord({ groupId: gone }, [view], { graceMs: 300, sampler }, recorder);

    expect(outcome.refused).toMatchObject({ kind: 'already-gone' });
    expect(heard).toEqual([]);
    expect(isAlive(pgid)).toBe(true);
  });
});
