import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { HOOK_MARKER_KEYS, isHookAgent } from '../core/hooks-setup/hook-agents';
import { resolveDataDir } from '../core/storage/data-dir';
import { appendOwnFile, ensureOwnDataDir } from '../core/storage/own-data-dir';
import { createHookSampler } from '../core/sampling/hook-sampler';
import { runHook } from './run-hook';
import { onlyAdditionalContext } from './hook-output';

export const HOOK_USAGE = 'corral hook <agent> <event>   (run by the agent; the JSON payload on stdin)';

/** A line in `<data dir>/hooks/hook-errors.log`, only in a data directory of the user's own. */
function logError(dataDir: string, text: string): void {
  try {
    const hooks = ensureOwnDataDir(dataDir, 'hooks');
    appendOwnFile(join(hooks, 'hook-errors.log'), `${new Date().toISOString()} ${text}\n`);
  } catch {
    // Nowhere left to report (or a data directory refused: nothing is written there); the agent must still go on.
  }
}

/**
 * `corral hook <agent> <event>` (args: agent, event): what the agent runs. It never fails the agent:
 * every internal error exits 0 with nothing on stdout and a line in `<data dir>/hooks/hook-errors.log`.
 * It never signals anything; it only reads /proc and writes Corral's own data directory. It loads no
 * config, no database and no native code: an agent waits for it after every shell command.
 */
export async function runHookProcess(args: string[], out: (text: string) => void): Promise<number> {
  const dataDir = resolveDataDir(process.env, process.platform, homedir());
  const [agent, event] = args;
  try {
    if (args.length !== 2 || !agent || !event || !isHookAgent(agent)) {
      throw new Error(`expected: ${HOOK_USAGE}; got: ${args.join(' ')}`);
    }
    const stdin = readFileSync(0, 'utf8');
    const sampler = await createHookSampler(HOOK_MARKER_KEYS);
    const text = onlyAdditionalContext(
      runHook(agent, event, stdin, { dataDir, sampler, pid: process.pid, now: Date.now() }),
    );
    if (text !== '') out(text);
  } catch (err) {
    logError(
      dataDir,
      `hook ${args.join(' ')}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
  }
  return 0;
}
