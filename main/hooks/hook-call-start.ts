/**
 * How much earlier than `now − duration_ms` a call may have begun: the hook reaches Corral some time
 * after the tool ended (milliseconds on an idle machine, measured at 550 ms on a loaded one).
 */
const DELIVERY_SLACK_MS = 2_000;

/**
 * An after-tool call's start with no before-tool record, from the payload's `duration_ms` (Claude
 * Code and Qwen Code send how long the tool ran), in the unit of ProcessRecord.startKey (`unitMs`
 * milliseconds each: a clock tick on Linux, a microsecond on macOS). The hook arrives some time after
 * the tool ended, so `now − duration` is later than the start by that delay: the start is taken
 * DELIVERY_SLACK_MS earlier, but never before `previous`, when the session's previous call was answered
 * (whose leftovers that call reported). Null: the payload says no duration.
 */
export function callStartFromDuration(
  now: number,
  unitMs: number,
  durationMs: unknown,
  previous: number | undefined,
): number | null {
  if (typeof durationMs !== 'number' || !(durationMs >= 0)) return null;
  const early = Math.floor(now - (durationMs + DELIVERY_SLACK_MS) / unitMs);
  return previous === undefined ? early : Math.max(early, previous);
}
