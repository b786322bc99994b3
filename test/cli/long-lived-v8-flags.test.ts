// watch and serve run unoptimised (interpreter and Sparkplug only: main/cli/long-lived-heap.ts); a
// one-shot command keeps V8's optimising compilers.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(new URL('../fixtures/v8-tiers.ts', import.meta.url));

function tiersAfter(command: string): Record<string, boolean> {
  const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', FIXTURE, command], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Record<string, boolean>;
}

describe('V8 tiers of the long-lived commands', () => {
  it.each(['watch', 'serve', 'metrics'])(
    '%s: a hot function stays baseline code, never Maglev or TurboFan',
    (c) => {
      expect(tiersAfter(c)).toEqual({ optimized: false, maglev: false, turbofan: false, baseline: true });
    },
  );

  it('ps (one-shot): the same function is optimised', () => {
    expect(tiersAfter('ps')).toMatchObject({ optimized: true });
  });
});
