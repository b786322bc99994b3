import { beforeEach, describe, expect, it } from 'vitest';
import { DarwinSampler } from '../../main/core/sampling/darwin/darwin-sampler';
import { putProcess } from './put-process';
import { FakeLibSystem } from './fake-libsystem';
import { waitFor } from '../support/wait-for';

// The exit watch waited on in a worker thread: poll(2) on the kqueue's own descriptor, against the
// stand-in's poll (rules in fake-descriptors.ts), which answers an async poll only once a slot is ready.
let lib: FakeLibSystem;
let sampler: DarwinSampler;

beforeEach(() => {
  lib = new FakeLibSystem();
  sampler = new DarwinSampler({ markerKeys: new Set() }, lib);
});

function put(pid: number): void {
  putProcess(lib, { pid });
}

const START = 100_000_000; // startSec 100 in microseconds

function signals(): { count: number; next: () => Promise<void>; onExit: () => void } {
  let resolveNext: (() => void) | null = null;
  const s = {
    count: 0,
    next: () => new Promise<void>((resolve) => (resolveNext = resolve)),
    onExit: () => {
      s.count++;
      resolveNext?.();
    },
  };
  return s;
}

describe('DarwinSampler exit watch waited on in a thread (poll on the kqueue)', () => {
  it('holds no thread while nothing is followed, then wakes once per exit and waits again after collection', async () => {
    const exits = signals();
    const stop = sampler.waitForExits(exits.onExit);
    expect(stop).not.toBeNull();
    expect(sampler.exitWatchState.waitingInThread).toBe(false);

    put(10);
    put(11);
    expect(
      sampler.watchExits(
        new Map([
          [10, START],
          [11, START],
        ]),
      ),
    ).toBe('all');
    // Followed just now: signalled once, as forked (what did they fork before?).
    expect(exits.count).toBe(1);
    expect(sampler.forkedWatched()).toEqual([10, 11]);
    expect(sampler.exitWatchState.waitingInThread).toBe(true);
    const kq = lib.descriptors.asyncPolls.at(-1)![1];

    const woken = exits.next();
    lib.exit(11);
    await woken;
    expect(exits.count).toBe(2);
    // Ready and not yet collected: the thread does not poll again (it would return at once, forever).
    expect(sampler.exitWatchState.waitingInThread).toBe(false);
    expect(sampler.exitedWatched()).toEqual([11]);
    expect(sampler.exitWatchState.waitingInThread).toBe(true);
    expect(lib.descriptors.asyncPolls.at(-1)![1]).toBe(kq);

    const again = exits.next();
    lib.exit(10);
    await again;
    expect(exits.count).toBe(3);
    expect(sampler.exitedWatched()).toEqual([10]);
    // Nothing followed any more: no poll waits.
    expect(sampler.exitWatchState.waitingInThread).toBe(false);

    stop!();
    await sampler.exitWatchState.stopped;
    expect(lib.descriptors.waiting).toBe(0);
  });

  it('says at once when a target was gone before it could be followed', () => {
    const exits = signals();
    sampler.waitForExits(exits.onExit);
    sampler.watchExits(new Map([[70, START]]));
    expect(exits.count).toBe(1);
    expect(sampler.exitedWatched()).toEqual([70]);
  });

  it('stops: the waiting poll is woken through its pipe, which is closed once the poll returned', async () => {
    const exits = signals();
    const stop = sampler.waitForExits(exits.onExit)!;
    put(20);
    sampler.watchExits(new Map([[20, START]]));
    const signalled = exits.count;
    expect(lib.descriptors.waiting).toBe(1);
    const [wakeFd] = lib.descriptors.asyncPolls.at(-1)!;
    stop();
    await sampler.exitWatchState.stopped;
    expect(lib.descriptors.waiting).toBe(0);
    // Closed: the stand-in reports a closed descriptor as POLLNVAL, as poll_nocancel does.
    const slot = Buffer.alloc(8);
    slot.writeInt32LE(wakeFd!, 0);
    slot.writeInt16LE(1, 4);
    expect(lib.poll(slot, 1, 0)).toBe(1);
    expect(slot.readInt16LE(6)).toBe(0x20);
    lib.exit(20);
    expect(exits.count).toBe(signalled);
  });

  it('wakes on a fork of a followed process (NOTE_FORK), and counts each process as forked once when first followed', async () => {
    const exits = signals();
    sampler.waitForExits(exits.onExit);
    put(80);
    sampler.watchExits(new Map([[80, START]]));
    // Just followed: what it forked before its knote was attached can only be found in its child list.
    expect(exits.count).toBe(1);
    expect(sampler.forkedWatched()).toEqual([80]);
    expect(sampler.forkedWatched()).toEqual([]);
    await waitFor('the thread waiting on the kqueue', () => sampler.exitWatchState.waitingInThread);

    const woken = exits.next();
    put(81);
    lib.fork(80);
    await woken;
    expect(exits.count).toBe(2);
    expect(sampler.exitedWatched()).toEqual([]);
    expect(sampler.forkedWatched()).toEqual([80]);
    // Two forks and an exit before anything is collected: one event for the knote, both notes in it.
    lib.fork(80);
    lib.exit(80);
    expect(sampler.forkedWatched()).toEqual([]);
    expect(sampler.exitedWatched()).toEqual([80]);
  });
});
