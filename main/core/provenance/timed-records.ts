import type { TranscriptCall } from './claude-transcript-records';

/**
 * The records of an agent's JSON-lines file that mention any of `words`, each with its `timestamp` in
 * ms. A line that is not JSON, or a record without a readable timestamp, is skipped: the file is another
 * program's.
 */
export function* timedRecords<R extends { timestamp?: unknown }>(
  lines: Iterable<string>,
  words: readonly string[],
): Generator<{ record: R; at: number }> {
  for (const line of lines) {
    if (!words.some((word) => line.includes(word))) continue;
    let record: R;
    try {
      record = JSON.parse(line) as R;
    } catch {
      continue;
    }
    const at = typeof record?.timestamp === 'string' ? Date.parse(record.timestamp) : NaN;
    if (Number.isFinite(at)) yield { record, at };
  }
}

/** Each call still open takes its result's time, where one was read (from any part of the file). */
export function settleReturns(calls: Map<string, TranscriptCall>, results: Map<string, number>): void {
  for (const call of calls.values())
    if (call.returnedAt === null) call.returnedAt = results.get(call.id) ?? null;
}
