import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Settings } from '../../../shared/model';
import { resolveDataDir } from '../../core/storage/data-dir';
import { createSampler } from '../../core/sampling/create-sampler';
import { HOOK_MARKER_KEYS, isHookAgent } from '../../core/hooks-setup/hook-agents';
import { runHook } from '../../hooks/run-hook';

export const HOOK_USAGE = 'corral hook <agent> <event>   (run by the agent; the JSON payload on stdin)';

function logError(dataDir: string, text: string): void {
  try {
    mkdirSync(join(dataDir, 'hooks'), { recursive: true });
    appendFileSync(join(dataDir, 'hooks', 'hook-errors.log'), `${new Date().toISOString()} ${text}\n`);
  } catch {
    // Nowhere left to report; the agent must still go on.
  }
}

/**
 * `corral hook <agent> <event>`: what the agent runs. It never fails the agent: every internal
 * error exits 0 with nothing on stdout and a line in `<data dir>/hooks/hook-errors.log`. It never
 * signals anything; it only reads /proc and writes Corral's own data directory.
 */
export async function runHookCommand(
  args: string[],
  _settings: Settings,
  out: (text: string) => void,
): Promise<number> {
  const dataDir = resolveDataDir(process.env, process.platform, homedir());
  const [agent, event] = args;
  try {
    if (args.length !== 2 || !agent || !event || !isHookAgent(agent)) {
      throw new Error(`expected: ${HOOK_USAGE}; got: ${args.join(' ')}`);
    }
    const stdin = readFileSync(0, 'utf8');
    const sampler = createSampler({ markerKeys: HOOK_MARKER_KEYS });
    const text = runHook(agent, event, stdin, { dataDir, sampler, pid: process.pid, now: Date.now() });
    if (text !== '') out(text);
  } catch (err) {
    logError(
      dataDir,
      `hook ${args.join(' ')}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
  }
  return 0;
}
