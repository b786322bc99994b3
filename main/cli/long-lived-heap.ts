import { setFlagsFromString } from 'node:v8';

const LONG_LIVED = new Set(['watch', 'serve', 'metrics']);

/**
 * V8 settings for a long-lived command (watch, serve, metrics); one-shot commands keep the defaults.
 * Both are read when V8 next decides (to grow the young generation, to optimise a function), so
 * setting them at run time works (checked on Node 20 and 24), but only from then on: call this
 * before loading the rest of the CLI.
 *
 * - The young generation stays at its initial size instead of letting start-up's allocations (loading
 *   the CLI, the first sweep) grow it. Grown, it held 6-8 MB of a 1,000-process `watch` (more on
 *   Node 24) that nothing needs after start-up.
 * - Functions run interpreted or as baseline (Sparkplug) code, never optimised by Maglev or TurboFan:
 *   the optimising compilers' own code, their zones and the optimised code held 14 MB of a
 *   1,000-process `watch` on Node 24 (79 → 65 MB), while its steady CPU, a sweep every few seconds,
 *   did not rise measurably (docs/performance.md, "V8 tiers"). On the command line this is `--max-opt=1`; at run time that
 *   flag alone leaves Maglev on, so both compilers are turned off by name.
 */
export function setLongLivedV8Flags(argv: readonly string[]): void {
  const command = argv.find((a) => a !== '--no-color');
  if (command === undefined || !LONG_LIVED.has(command)) return;
  for (const flags of ['--semi-space-growth-factor=1', '--no-maglev --no-turbofan']) {
    try {
      setFlagsFromString(flags);
    } catch {
      // A runtime without the flag: V8's default.
    }
  }
}
