import { describe } from 'vitest';

/**
 * The one way a test file skips what this machine cannot run (no agent CLI, no Electron or Chromium,
 * not root, no other user, pids that cannot be forced…): `describeUnless(reason)(name, …)` is vitest's
 * `describe` when `reason` is null, undefined or empty, and otherwise skips the suite and says why, once,
 * on stderr (`[skipped] <name>: <reason>`), so a skip is never silent.
 */
export function describeUnless(reason: string | null | undefined): typeof describe {
  if (!reason) return describe;
  const skipped = describe.skip;
  return ((name: unknown, ...rest: unknown[]) => {
    console.warn(`[skipped] ${String(name)}: ${reason}`);
    return (skipped as (...args: unknown[]) => unknown)(name, ...rest);
  }) as unknown as typeof describe;
}
