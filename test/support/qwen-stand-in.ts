import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, tempDirForTest, trackGroup } from './spawned-groups';
import { waitFor } from './wait-for';

/** What Qwen Code 0.24.4's `qwen sessions ps --json` printed for a real interactive session (one line). */
export const QWEN_SESSIONS_PS = readFileSync(
  new URL('../fixtures/qwen/0.24.4/sessions-ps.jsonl', import.meta.url),
  'utf8',
);
/** The session that list names, and its name and kind there. */
export const QWEN_LISTED = {
  sessionId: '759b76de-d855-4bc0-af58-1370ea1a7c66',
  name: 'qwen-cwd-49',
  kind: 'tui',
};

export interface QwenStandIn {
  /** The agent's pid, which leads its own group. */
  pid: number;
  /** The pid of the tool call's shell, which leads its own group (a session of its own, as Qwen Code's). */
  toolCall: number;
  /** The pid (and so the group) of each `sessions ps --json` run so far, in order. */
  listRuns(): number[];
}

/**
 * A stand-in for Qwen Code as it runs (`node …/qwen`, which Corral knows by its script's name), with
 * one tool call of the session the recorded list names (`QWEN_CODE_SESSION_ID`, as Qwen Code's shell
 * tool sets it), which runs `toolCall`. Asked `sessions ps --json`, as Corral asks Qwen Code's CLI, it
 * notes its run's pid and prints the recorded list after `listDelayMs`, with a `sleep` in its group
 * meanwhile when it is slow (what a stopped list leaves must go with its group). Every group it starts is removed by
 * its PGID after the test.
 */
export async function startQwenStandIn({
  listDelayMs = 0,
  toolCall = 'while :; do sleep 2; done',
}: { listDelayMs?: number; toolCall?: string } = {}): Promise<QwenStandIn> {
  const dir = tempDirForTest('corral-qwen-');
  const home = tempDirForTest('corral-qwen-home-');
  const list = join(dir, 'list.jsonl');
  const runs = join(dir, 'list-runs');
  writeFileSync(list, QWEN_SESSIONS_PS);
  const config = { list, runs, listDelayMs, toolCall, sessionId: QWEN_LISTED.sessionId };
  // CommonJS, named `qwen` as Qwen Code's bin is: the list command Corral runs is `<node> <this> sessions ps --json`.
  const script = join(dir, 'qwen');
  writeFileSync(
    script,
    `const { spawn } = require('node:child_process');
const fs = require('node:fs');
const c = ${JSON.stringify(config)};
if (process.argv.slice(2).join(' ') === 'sessions ps --json') {
  fs.appendFileSync(c.runs, process.pid + '\\n');
  if (c.listDelayMs > 0) spawn('sleep', ['30'], { stdio: 'ignore' });
  setTimeout(() => { process.stdout.write(fs.readFileSync(c.list)); process.exit(0); }, c.listDelayMs);
} else {
  const env = { ...process.env, QWEN_CODE: '1', QWEN_CODE_SESSION_ID: c.sessionId };
  const call = spawn('/bin/bash', ['-c', c.toolCall], { detached: true, stdio: 'ignore', env });
  process.stdout.write(call.pid + '\\n');
  setInterval(() => {}, 1 << 30);
}
`,
  );
  const child = spawn(process.execPath, [script], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
    env: cleanEnv({ HOME: home, QWEN_CODE_NO_RELAUNCH: 'true' }),
  });
  trackGroup(child.pid!);
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const toolCallPid = await waitFor('the stand-in agent to start its tool call', () =>
    out.endsWith('\n') ? Number(out.trim()) : undefined,
  );
  trackGroup(toolCallPid);
  const listRuns = (): number[] => {
    let text = '';
    try {
      text = readFileSync(runs, 'utf8');
    } catch {
      // Not run yet.
    }
    const pids = text
      .split('\n')
      .filter((l) => l !== '')
      .map(Number);
    for (const pid of pids) trackGroup(pid);
    return pids;
  };
  return { pid: child.pid!, toolCall: toolCallPid, listRuns };
}
