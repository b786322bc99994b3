import type { TranscriptCall } from './claude-transcript-records';
import { settleReturns, timedRecords } from './timed-records';

/** The shell tool Codex CLI 0.171 offers the model: `exec_command`, its command in `cmd`. */
const SHELL_TOOLS = new Set(['exec_command']);

interface CodexRecord {
  type?: unknown;
  timestamp?: unknown;
  payload?: { type?: unknown; name?: unknown; arguments?: unknown; call_id?: unknown };
}

/**
 * Reads shell calls out of Codex session-file lines (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<thread
 * id>.jsonl`, as the real Codex CLI 0.171 writes them: test/fixtures/codex): a `response_item` whose
 * payload is a `function_call` named `exec_command` with `call_id` (the tool call's
 * CODEX_TOOL_CALL_ID) and `arguments` (a JSON string holding `cmd`), later a `response_item`
 * `function_call_output` with the same `call_id`. Codex's shell tool takes no description, so
 * `description` is always null. Lines not of that shape are skipped.
 */
export function collectCodexCalls(
  lines: Iterable<string>,
  into: Map<string, TranscriptCall>,
  results: Map<string, number> = new Map(),
): void {
  for (const { record, at } of timedRecords<CodexRecord>(lines, ['"function_call'])) {
    const p = record.payload;
    if (record.type !== 'response_item' || !p || typeof p.call_id !== 'string') continue;
    if (p.type === 'function_call_output') {
      if (!results.has(p.call_id)) results.set(p.call_id, at);
      continue;
    }
    if (p.type !== 'function_call' || typeof p.name !== 'string' || !SHELL_TOOLS.has(p.name)) continue;
    const command = commandOf(p.arguments);
    if (command === null || into.has(p.call_id)) continue;
    into.set(p.call_id, { id: p.call_id, command, description: null, issuedAt: at, returnedAt: null });
  }
  settleReturns(into, results);
}

function commandOf(args: unknown): string | null {
  if (typeof args !== 'string') return null;
  try {
    const cmd = (JSON.parse(args) as { cmd?: unknown }).cmd;
    return typeof cmd === 'string' && cmd !== '' ? cmd : null;
  } catch {
    return null;
  }
}
