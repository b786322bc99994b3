import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { executablesOnPath } from '../hooks-setup/executables-on-path';
import { installedCorralCommand } from '../hooks-setup/installed-command';

/**
 * The argv that runs this Corral from a service manager: for an installed package the `corral`
 * command (its absolute path, which outlives upgrades), else, in a checkout, this Node and the
 * checkout's launcher (which runs the build, or the source through tsx).
 */
export function corralCommandArgv(
  env: Readonly<Record<string, string | undefined>>,
  script: string | undefined = process.argv[1],
  node: string = process.execPath,
): string[] {
  if (!script) throw new Error('cannot tell where the corral CLI is');
  const installed = installedCorralCommand(script, env);
  if (installed) return [installed];
  let dir = dirname(realpathSync(script));
  // bin/corral.mjs, out/main/corral.js or main/cli/corral.ts: the launcher is <root>/bin/corral.mjs.
  const roots = [join(dir, '..'), join(dir, '..', '..')];
  for (const root of roots) {
    try {
      return [node, realpathSync(join(root, 'bin', 'corral.mjs'))];
    } catch {
      dir = root;
    }
  }
  throw new Error(`cannot find bin/corral.mjs near ${script}`);
}

/**
 * The directory to find this Node in by a path that outlives upgrades: the first directory on PATH
 * whose `node` is this very Node (Homebrew's `/opt/homebrew/bin`, a link into `Cellar/node/<version>`
 * that `brew upgrade node` moves on; nvm's current link), else the directory of the binary itself.
 * `process.execPath` is always the real path, which names one version only.
 */
export function stableNodeDir(
  node: string = process.execPath,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  let real: string;
  try {
    real = realpathSync(node);
  } catch {
    return dirname(node);
  }
  const same = executablesOnPath('node', env).find((candidate) => {
    try {
      return realpathSync(candidate) === real;
    } catch {
      return false;
    }
  });
  return dirname(same ?? node);
}

/**
 * The PATH a service runs with: the directory of the Node that installed it first, by its stable path
 * (the `corral` command's `#!/usr/bin/env node` finds it even where a service manager's PATH lacks it,
 * e.g. nvm or Homebrew), then the system's.
 */
export function servicePath(
  node: string = process.execPath,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  return [...new Set([stableNodeDir(node, env), '/usr/local/bin', '/usr/bin', '/bin'])].join(':');
}
