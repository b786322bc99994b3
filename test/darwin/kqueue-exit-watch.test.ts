import { beforeEach, describe, expect, it } from 'vitest';
import { DarwinSampler } from '../../main/core/sampling/darwin/darwin-sampler';
import { putProcess } from './put-process';
import { FakeLibSystem } from './fake-libsystem';

// The exit watch through EVFILT_PROC NOTE_EXIT, against the stand-in's kevent (rules in fake-libsystem.ts).
let lib: FakeLibSystem;
let sampler: DarwinSampler;

beforeEach(() => {
  lib = new FakeLibSystem();
  sampler = new DarwinSampler({ markerKeys: new Set() }, lib);
});

function put(pid: number, opts: { uid?: number; startSec?: number; zombie?: boolean } = {}): void {
  putProcess(lib, { pid, ...opts });
}

const START = 100_000_000; // startSec 100 in microseconds

describe('DarwinSampler exit watch (kqueue EVFILT_PROC)', () => {
  it('reports a followed process once when it exits, with one kevent for all of them', () => {
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
    expect(sampler.exitedWatched()).toEqual([]);
    lib.exit(11);
    expect(sampler.exitedWatched()).toEqual([11]);
    expect(sampler.exitedWatched()).toEqual([]);
  });

  it("follows another user's process too: NOTE_EXIT needs no permission (filt_procattach)", () => {
    put(20, { uid: 0 });
    expect(sampler.watchExits(new Map([[20, START]]))).toBe('all');
    lib.exit(20);
    expect(sampler.exitedWatched()).toEqual([20]);
  });

  it('reports a target already gone, or a zombie, as exited (ESRCH on attach)', () => {
    put(30, { zombie: true });
    expect(
      sampler.watchExits(
        new Map([
          [30, START],
          [31, START],
        ]),
      ),
    ).toBe('all');
    expect(sampler.exitedWatched().slice().sort()).toEqual([30, 31]);
  });

  it('takes a pid now held by a newer process as the target having exited', () => {
    put(40, { startSec: 200 });
    sampler.watchExits(new Map([[40, START]]));
    expect(sampler.exitedWatched()).toEqual([40]);
    // And it does not keep following the newer process.
    lib.exit(40);
    expect(sampler.exitedWatched()).toEqual([]);
  });

  it('stops following processes no longer asked for', () => {
    put(50);
    put(51);
    sampler.watchExits(
      new Map([
        [50, START],
        [51, START],
      ]),
    );
    sampler.watchExits(new Map([[51, START]]));
    lib.exit(50);
    lib.exit(51);
    expect(sampler.exitedWatched()).toEqual([51]);
  });

  it('releases the kqueue on close', () => {
    put(60);
    sampler.watchExits(new Map([[60, START]]));
    sampler.close();
    expect(sampler.exitedWatched()).toEqual([]);
  });
});
