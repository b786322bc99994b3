import { setFlagsFromString } from 'node:v8';

const LONG_LIVED = new Set(['watch', 'serve', 'metrics']);

/**
 * For a long-lived command (watch, serve, metrics), V8's young generation stays at its initial size
 * instead of letting start-up's allocations (loading the CLI, the first sweep) grow it. Grown, it held
 * 6-8 MB of a 1,000-process `watch` (more on Node 24) that nothing needs after start-up. The flag is
 * read whenever the young generation would grow, so setting it at run time works (checked on Node 20
 * and 24), but only for growth after it: call it before loading the rest of the CLI. One-shot commands
 * keep the default sizing.
 */
export function keepYoungGenerationSmallFor(argv: readonly string[]): void {
  const command = argv.find((a) => a !== '--no-color');
  if (command === undefined || !LONG_LIVED.has(command)) return;
  try {
    setFlagsFromString('--semi-space-growth-factor=1');
  } catch {
    // A runtime without the flag: the default sizing.
  }
}
