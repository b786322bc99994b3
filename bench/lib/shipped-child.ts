import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { benchEnv, trackGroup } from './populations';

/**
 * Starts one shipped Corral (`node <bundle> …`) in a process group of its own, tracked for cleanup,
 * with its own HOME and data directory under `dir` (named `name`) and the bench's shared config.
 */
export function startShippedChild(
  args: string[],
  dir: string,
  name: string,
  stdout: 'ignore' | 'pipe',
): ChildProcess {
  const home = join(dir, name);
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ['ignore', stdout, 'pipe'],
    env: benchEnv({
      HOME: home,
      CORRAL_CONFIG: join(dir, 'config.json'),
      CORRAL_DATA_DIR: join(home, 'data'),
    }),
  });
  trackGroup(child.pid!);
  return child;
}
