import { expect, it } from 'vitest';
import { DarwinSampler } from '../../main/core/sampling/darwin/darwin-sampler';
import { withDarwinStartUnits } from '../../main/core/sampling/hook-sampler';
import { callStartFromDuration } from '../../main/hooks/hook-call-start';
import { FakeLibSystem } from './fake-libsystem';
import { putProcess } from './put-process';

// The one-shot hook on macOS takes a call's start from PostToolUse's duration_ms, counted back from its
// own start: the sampler's startKey (libproc's pbi_start_tvsec/_tvusec, in µs) and its "now" must be one
// clock in one unit. Without nowKey there, no start was derived and no note given (Claude Code's client
// path has no PreToolUse). Not run on a Mac: libproc is the stand-in, fed the wall-clock start xnu gives.
it('gives a macOS hook sampler now and a start in the same microseconds', () => {
  const lib = new FakeLibSystem();
  const sampler = withDarwinStartUnits(new DarwinSampler({ markerKeys: new Set() }, lib));
  const startSec = Math.floor(Date.now() / 1000) - 3;
  putProcess(lib, { pid: 4242, comm: 'node', argv: ['node', 'corral-hook.js'], startSec });

  const own = sampler.sampleSome([4242])[0]!;
  expect(own.startKey).toBe(startSec * 1_000_000);
  const sinceStart = sampler.nowKey() - own.startKey;
  expect(sinceStart).toBeGreaterThanOrEqual(3_000_000);
  expect(sinceStart).toBeLessThan(60_000_000);
  // A 500 ms call, with the 2 s allowed for the hook's delivery: 2.5 s before the hook began.
  expect(callStartFromDuration(own.startKey, sampler.startKeyMs, 500, undefined)).toBe(
    own.startKey - 2_500_000,
  );
});
