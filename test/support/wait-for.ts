/**
 * Polls until `check` returns a value other than undefined/false. Fails with `what` when the deadline
 * passes: the deadline is a failure, never a pass.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  {
    timeoutMs = 10_000,
    intervalMs = 20,
    explain,
  }: {
    timeoutMs?: number;
    intervalMs?: number;
    /** What was seen instead, for the failure message. */
    explain?: () => string;
  } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const suffix = lastError ? ` (last error: ${String(lastError)})` : '';
      const seen = explain ? `\n${explain()}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${suffix}${seen}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The events seen, one short line each, for a failure message: what came instead of the one awaited. */
export function describeEvents(
  events: readonly { type: string; pid: number; pgid: number; command?: string }[],
  last = 40,
): string {
  const shown = events.slice(-last).map((e) => `  ${e.type} pid ${e.pid} pgid ${e.pgid} ${e.command ?? ''}`);
  return `events seen (${events.length}, the last ${shown.length}):\n${shown.join('\n')}`;
}
