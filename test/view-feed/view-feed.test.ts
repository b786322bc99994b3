// The one view feed: a real service polled by hand and a real process group; every transport listening
// gets the same deltas, computed once, and `snapshot:get` answers with the snapshot they chain on.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningService } from '../../main/core/create-service';
import type { SnapshotPush } from '../../main/core/service';
import { startHarness, type Harness } from '../support/service-harness';
import { removeCreatedGroups, spawnGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

let harness: Harness;
let running: RunningService;

beforeEach(() => {
  harness = startHarness();
  running = harness.running;
});

afterEach(async () => {
  await harness.stop();
  await removeCreatedGroups();
});

/** The seq a receiver holds after `push`, given what it held before. */
const heldAfter = (held: number | null, push: SnapshotPush): number | null =>
  push.kind === 'whole' ? push.snapshot.seq : push.kind === 'delta' ? push.delta.seq : held;

describe('the view feed', () => {
  it('computes each delta once for every listener, starts a newcomer whole, and answers snapshot:get with the base', async () => {
    const first: SnapshotPush[] = [];
    let held: number | null = null;
    const answered: { held: number | null; got: number }[] = [];
    const offFirst = running.service.onSnapshotPush((push) => {
      first.push(push);
      // Whatever the transports were just told, snapshot:get gives the snapshot the next delta chains on.
      held = heldAfter(held, push);
      answered.push({ held, got: running.service.snapshot().seq });
    });
    running.monitor.poll();
    expect(first.map((p) => p.kind)).toEqual(['whole']);

    const joined = first.length;
    const second: SnapshotPush[] = [];
    const offSecond = running.service.onSnapshotPush((push) => second.push(push));
    const group = spawnGroup('exec sleep 600');
    const deltas = (from: number) => first.slice(from).flatMap((p) => (p.kind === 'delta' ? [p.delta] : []));
    const added = await waitFor('the new group in a delta', () => {
      running.monitor.poll();
      return deltas(joined)
        .flatMap((d) => d.groups)
        .find((g) => g.pgid === group.pgid);
    });
    for (let i = 0; i < 3; i++) running.monitor.poll();
    expect(second[0]!.kind).toBe('whole');
    // One fold per snapshot: both listeners were handed the very same pushes after the newcomer's first.
    expect(second.slice(1)).toHaveLength(first.length - joined - 1);
    second.slice(1).forEach((push, i) => expect(push).toBe(first[joined + 1 + i]));

    const killedAt = first.length;
    process.kill(-group.pgid, 'SIGKILL');
    await waitFor('the group removed in a delta', () => {
      running.monitor.poll();
      return deltas(killedAt).some((d) => d.removed.includes(added.id));
    });
    expect(answered.filter((a) => a.held !== a.got)).toEqual([]);
    offFirst();
    offSecond();
  });
});
