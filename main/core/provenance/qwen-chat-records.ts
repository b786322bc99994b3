import type { TranscriptCall } from './claude-transcript-records';
import { settleReturns, timedRecords } from './timed-records';

/**
 * Qwen Code's shell tool (0.24): `run_shell_command`, with `command`, `description` and `is_background`
 * (true: Qwen Code runs it as a managed background task, shell.ts `executeBackground`).
 */
const SHELL_TOOLS = new Set(['run_shell_command']);

interface Part {
  functionCall?: {
    id?: unknown;
    name?: unknown;
    args?: { command?: unknown; description?: unknown; is_background?: unknown };
  };
  functionResponse?: { id?: unknown };
}

/**
 * Reads shell calls out of Qwen Code's chat records (`<QWEN_CODE_PROJECT_DIR>/chats/<session id>.jsonl`,
 * as the real Qwen Code 0.24.4 writes them: test/fixtures/qwen): an `assistant` record whose
 * `message.parts` hold `{functionCall: {id, name: "run_shell_command", args: {command, description,
 * is_background}}}`,
 * later a `tool_result` record whose parts hold `{functionResponse: {id}}`. Lines not of that shape
 * are skipped: the file is another program's.
 */
export function collectQwenCalls(
  lines: Iterable<string>,
  into: Map<string, TranscriptCall>,
  results: Map<string, number> = new Map(),
): void {
  type ChatRecord = { type?: unknown; timestamp?: unknown; message?: { parts?: unknown } };
  for (const { record, at } of timedRecords<ChatRecord>(lines, ['"functionCall"', '"functionResponse"'])) {
    const parts = record.message?.parts;
    if (!Array.isArray(parts)) continue;
    for (const part of parts as Part[]) {
      const call = part?.functionCall;
      const response = part?.functionResponse;
      if (
        record.type === 'assistant' &&
        call &&
        typeof call.name === 'string' &&
        SHELL_TOOLS.has(call.name)
      ) {
        const command = call.args?.command;
        if (typeof call.id !== 'string' || typeof command !== 'string' || into.has(call.id)) continue;
        const description = call.args?.description;
        into.set(call.id, {
          id: call.id,
          command,
          description: typeof description === 'string' && description !== '' ? description : null,
          issuedAt: at,
          returnedAt: null,
          ...(call.args?.is_background === true ? { background: true } : {}),
        });
      } else if (record.type === 'tool_result' && response && typeof response.id === 'string') {
        if (!results.has(response.id)) results.set(response.id, at);
      }
    }
  }
  settleReturns(into, results);
}
