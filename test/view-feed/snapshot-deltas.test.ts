import { describe, expect, it } from 'vitest';
import { SnapshotDeltas, type SnapshotPush } from '../../main/core/view-feed/snapshot-deltas';
import type { SnapshotDelta } from '../../shared/contract';
import type { GroupView, HostInfo, Snapshot } from '../../shared/model';
import { makeGroup } from '../transport/fake-corral-service';

const host = (freeMemBytes = 1024): HostInfo => ({
  hostname: 'box',
  platform: 'linux',
  cpuCount: 2,
  loadAverage: [0.1, 0.2, 0.3],
  totalMemBytes: 4096,
  freeMemBytes,
});

function snapshot(seq: number, groups: GroupView[], hostInfo: HostInfo | null = host()): Snapshot {
  const s: Snapshot = { seq, sampledAt: 1_000 * seq, groups };
  if (hostInfo !== null) s.host = hostInfo;
  return s;
}

function deltaOf(push: SnapshotPush): SnapshotDelta {
  if (push.kind !== 'delta') throw new Error(`expected a delta, got ${push.kind}`);
  return push.delta;
}

const a = makeGroup({ id: '1:1:1', pgid: 1 });
const b = makeGroup({ id: '2:2:1', pgid: 2 });

describe('SnapshotDeltas', () => {
  it('sends the first snapshot whole, then only the groups changed or gone', () => {
    const deltas = new SnapshotDeltas();
    const first = snapshot(1, [a, b]);
    expect(deltas.next(first)).toEqual({ kind: 'whole', snapshot: first });
    const busier = { ...a, cpuPercent: 12 };
    expect(deltaOf(deltas.next(snapshot(2, [busier])))).toEqual({
      seq: 2,
      baseSeq: 1,
      sampledAt: 2_000,
      groups: [busier],
      removed: [b.id],
    });
  });

  it('says there is nothing to send when no group changed or went and the host is the same', () => {
    const deltas = new SnapshotDeltas();
    deltas.next(snapshot(1, [a]));
    expect(deltas.next(snapshot(2, [structuredClone(a)], host()))).toEqual({ kind: 'unchanged' });
  });

  it('chains the next delta on the snapshot last sent, skipping those not sent', () => {
    const deltas = new SnapshotDeltas();
    deltas.next(snapshot(1, [a]));
    deltas.next(snapshot(2, [a]));
    deltas.next(snapshot(3, [a]));
    const delta = deltaOf(deltas.next(snapshot(4, [a, b])));
    expect(delta).toMatchObject({ seq: 4, baseSeq: 1, groups: [b], removed: [] });
    expect(deltaOf(deltas.next(snapshot(5, [b]))).baseSeq).toBe(4);
  });

  it('includes the host only when it differs from the one last sent', () => {
    const deltas = new SnapshotDeltas();
    deltas.next(snapshot(1, [a], host(1024)));
    expect(deltaOf(deltas.next(snapshot(2, [b], host(1024)))).host).toBeUndefined();
    expect(deltaOf(deltas.next(snapshot(3, [b], host(2048)))).host).toEqual(host(2048));
    // A host change alone is worth a delta, with no group in it.
    expect(deltaOf(deltas.next(snapshot(4, [b], host(4096))))).toMatchObject({
      groups: [],
      removed: [],
      host: host(4096),
    });
    // Receivers keep the host they hold: a snapshot without one changes nothing.
    expect(deltas.next(snapshot(5, [b], null))).toEqual({ kind: 'unchanged' });
    expect(deltas.next(snapshot(6, [b], host(4096)))).toEqual({ kind: 'unchanged' });
  });

  it('gives a newcomer the snapshot last sent, as of the latest sample, and the next delta chains on it', () => {
    const deltas = new SnapshotDeltas();
    deltas.next(snapshot(1, [a]));
    deltas.next(snapshot(2, [a]));
    const whole = deltas.latest!;
    expect(whole).toEqual({ ...snapshot(1, [a]), sampledAt: 2_000 });
    const delta = deltaOf(deltas.next(snapshot(3, [b])));
    expect(delta.baseSeq).toBe(whole.seq);
    expect(delta).toMatchObject({ groups: [b], removed: [a.id] });
  });

  it('sends the next snapshot whole after a reset', () => {
    const deltas = new SnapshotDeltas();
    deltas.next(snapshot(1, [a]));
    deltas.reset();
    expect(deltas.latest).toBeNull();
    expect(deltas.next(snapshot(2, [a])).kind).toBe('whole');
  });
});
