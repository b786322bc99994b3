import type { HookAgent } from '../core/hooks-setup/hook-agents';
import { closeUntrusted, isRefusal, openUntrustedFile, readRange } from '../core/files/untrusted-file';

/** How much of a Codex transcript's end is searched for the call's own line: a turn's worth and more. */
const TRANSCRIPT_TAIL_BYTES = 1 << 20;

interface DurationPayload {
  duration_ms?: unknown;
  transcript_path?: unknown;
  tool_use_id?: unknown;
}

/**
 * The last `bytes` of the user's regular file at `path`, or null when it cannot be read as one. The path
 * comes from a payload: read as any file Corral did not write (untrusted-file.ts), so a FIFO or a device
 * there never blocks the answer.
 */
function fileTail(path: string, bytes: number): string | null {
  const file = openUntrustedFile(path, { maxBytes: Infinity, owner: process.geteuid?.() });
  if (isRefusal(file)) return null;
  try {
    const tail = readRange(file, Math.max(0, file.size - bytes), file.size);
    return isRefusal(tail) ? null : tail.toString('utf8');
  } finally {
    closeUntrusted(file);
  }
}

/**
 * When Codex wrote the model's function call `callId` to the session's transcript (its rollout file:
 * a `response_item` line whose payload is the `function_call` with that `call_id`), in ms since the
 * epoch. Codex writes it before it starts the command (observed with 0.171.0: 186 ms before the
 * command's own `started_at_ms`), so it is at or before the call's start. Null when not found.
 */
export function codexFunctionCallAt(transcriptPath: string, callId: string): number | null {
  const tail = fileTail(transcriptPath, TRANSCRIPT_TAIL_BYTES);
  if (tail === null) return null;
  const needle = `"call_id":${JSON.stringify(callId)}`;
  const lines = tail.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (!line.includes(needle) || !line.includes('"function_call"')) continue;
    try {
      const entry = JSON.parse(line) as {
        timestamp?: unknown;
        payload?: { type?: unknown; call_id?: unknown };
      };
      if (entry.payload?.type !== 'function_call' || entry.payload.call_id !== callId) continue;
      const at = typeof entry.timestamp === 'string' ? Date.parse(entry.timestamp) : NaN;
      if (Number.isFinite(at)) return at;
    } catch {
      // The tail's first line may be cut; any other line that is not JSON is not the call's.
    }
  }
  return null;
}

/**
 * How long the tool call has run, in ms, as the agent tells it: the payload's `duration_ms` (Claude
 * Code, Qwen Code); for Codex, whose PostToolUse carries none, the time since its transcript recorded
 * the model's function call (`transcript_path`, `tool_use_id`). Undefined when neither says; the
 * caller then has no start for the call (hook-call-start.ts).
 */
export function toolDurationMs(agent: HookAgent, payload: DurationPayload, nowMs: number): unknown {
  if (payload.duration_ms !== undefined || agent !== 'codex') return payload.duration_ms;
  if (typeof payload.transcript_path !== 'string' || typeof payload.tool_use_id !== 'string')
    return undefined;
  const at = codexFunctionCallAt(payload.transcript_path, payload.tool_use_id);
  return at === null ? undefined : Math.max(0, nowMs - at);
}
