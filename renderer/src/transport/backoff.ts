/** Delay before reconnect attempt `attempt` (0-based): doubling from `baseMs`, capped at `maxMs`. */
export function reconnectDelay(attempt: number, baseMs = 500, maxMs = 10_000): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 20));
}
