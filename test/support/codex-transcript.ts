import { appendFileSync } from 'node:fs';

/**
 * Appends to `path` the line Codex writes to a session's transcript when the model asks for a command
 * (a `response_item` holding the `function_call` with `callId`; shape from the real 0.171.0 rollout in
 * test/fixtures/codex/), stamped now: what Corral reads for the call's start (main/hooks/tool-duration.ts).
 */
export function writeCodexFunctionCall(path: string, callId: string, command: string): void {
  const line = {
    timestamp: new Date().toISOString(),
    type: 'response_item',
    payload: {
      type: 'function_call',
      id: 'fc_1',
      name: 'exec_command',
      arguments: JSON.stringify({ cmd: command }),
      call_id: callId,
    },
  };
  appendFileSync(path, `${JSON.stringify(line)}\n`);
}
