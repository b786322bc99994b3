import { settleReturns, timedRecords } from './timed-records';

/** One Bash call in a Claude Code transcript. */
export interface TranscriptCall {
  id: string;
  command: string;
  description: string | null;
  /** The assistant record's timestamp: when the agent issued the call, ms since epoch. */
  issuedAt: number;
  /** The tool_result record's timestamp; null while the call has not returned. */
  returnedAt: number | null;
  /**
   * The agent meant it to keep running: Claude Code's `run_in_background: true`, Qwen Code's
   * `is_background: true` in the call's input.
   */
  background?: boolean;
}

interface ContentItem {
  type?: unknown;
  id?: unknown;
  name?: unknown;
  input?: { command?: unknown; description?: unknown; run_in_background?: unknown };
  tool_use_id?: unknown;
}

/**
 * Reads the Bash calls out of transcript lines (shared/AGENTS.md: an `assistant` record holding
 * `tool_use` items, then a `user` record holding the matching `tool_result`). Lines that are not JSON
 * or not of that shape are skipped: a transcript is another program's file. `results` keeps the
 * tool_result times across calls, since a result may be read before its call when reading backwards.
 */
export function collectBashCalls(
  lines: Iterable<string>,
  into: Map<string, TranscriptCall>,
  results: Map<string, number> = new Map(),
): void {
  type TranscriptRecord = { type?: unknown; timestamp?: unknown; message?: { content?: unknown } };
  for (const { record, at } of timedRecords<TranscriptRecord>(lines, ['"tool_use"', '"tool_result"'])) {
    const content = record.message?.content;
    if (!Array.isArray(content)) continue;
    for (const item of content as ContentItem[]) {
      if (record.type === 'assistant' && item.type === 'tool_use' && item.name === 'Bash') {
        const command = item.input?.command;
        if (typeof item.id !== 'string' || typeof command !== 'string') continue;
        const description = item.input?.description;
        if (into.has(item.id)) continue; // the later record (read first, from the end) stands
        into.set(item.id, {
          id: item.id,
          command,
          description: typeof description === 'string' && description !== '' ? description : null,
          issuedAt: at,
          returnedAt: null,
          ...(item.input?.run_in_background === true ? { background: true } : {}),
        });
      } else if (
        record.type === 'user' &&
        item.type === 'tool_result' &&
        typeof item.tool_use_id === 'string'
      ) {
        if (!results.has(item.tool_use_id)) results.set(item.tool_use_id, at);
      }
    }
  }
  settleReturns(into, results);
}
