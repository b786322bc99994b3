/**
 * Pure: the text a finished tool call printed, from an after-tool hook's payload, whichever agent sent
 * it. Recorded payloads (test/fixtures/*): Claude Code 2.1.332's PostToolUse carries `tool_response:
 * {stdout, stderr, interrupted, …}`, and when the command exits non-zero it sends PostToolUseFailure
 * instead, with the output in `error` ("Exit code 1\n…"); Gemini CLI and Qwen Code send
 * `tool_response: {llmContent, returnDisplay}`; Codex sends a string or an object with `output`. Every
 * string inside `tool_response` (bounded) and `error` is taken, so a new field is read too.
 */

const MAX_STRINGS = 64;
const MAX_DEPTH = 4;

function strings(value: unknown, depth: number, out: string[]): void {
  if (out.length >= MAX_STRINGS || depth > MAX_DEPTH) return;
  if (typeof value === 'string') {
    if (value !== '') out.push(value);
  } else if (Array.isArray(value)) {
    for (const v of value) strings(v, depth + 1, out);
  } else if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value as Record<string, unknown>)) strings(v, depth + 1, out);
  }
}

export function toolOutputText(payload: unknown): string {
  if (typeof payload !== 'object' || payload === null) return '';
  const p = payload as { tool_response?: unknown; error?: unknown };
  const out: string[] = [];
  strings(p.tool_response, 0, out);
  if (typeof p.error === 'string') out.push(p.error);
  return out.join('\n');
}

/** The shell command the tool ran (`tool_input.command`), '' when there is none. */
export function toolCommandText(payload: unknown): string {
  if (typeof payload !== 'object' || payload === null) return '';
  const input = (payload as { tool_input?: unknown }).tool_input;
  if (typeof input !== 'object' || input === null) return '';
  const command = (input as { command?: unknown }).command;
  return typeof command === 'string' ? command : '';
}
