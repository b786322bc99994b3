import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { installedCorralCommand } from './installed-command';
import { shellQuote } from './shell-quote';

/**
 * Corral's own script at the end of a path: `corral`, `corral-hook`, with `.js`, `.mjs`, `.ts`… or none,
 * or the C hook client `corral-hook-native`.
 */
export const CORRAL_SCRIPT = String.raw`corral(?:-hook(?:-native)?)?(?:\.[cm]?[jt]s)?`;

/**
 * The command line agents run for Corral's hooks: `CORRAL_HOOK_COMMAND` when set (e.g. `corral`),
 * else for an installed package the `corral` command that runs it (its absolute path on PATH, which
 * outlives upgrades and Node version switches), else this very CLI by absolute paths (`<node> <…/out/main/corral.js>`, or `bin/corral.mjs` when
 * running from source), so the hook works without `corral` on the agent's PATH. A hook must start
 * fast, so the built JavaScript is preferred to the TypeScript source, and the built hook entry
 * (`out/main/corral-hook.js`) to the whole CLI.
 */
export function hookCommandPrefix(
  env: Readonly<Record<string, string | undefined>> = process.env,
  script: string | undefined = process.argv[1],
  node: string = process.execPath,
): string {
  const explicit = env.CORRAL_HOOK_COMMAND?.trim();
  if (explicit) return explicit;
  if (!script) throw new Error('cannot tell where the corral CLI is; set CORRAL_HOOK_COMMAND');
  const installed = installedCorralCommand(script, env);
  if (installed) return shellQuote(installed);
  let path = realpathSync(script);
  // The built CLI has the hook's own entry beside it, which loads no config and no native code.
  const hookEntry = join(dirname(path), 'corral-hook.js');
  if (/\.[cm]?js$/.test(path) && existsSync(hookEntry)) path = hookEntry;
  else if (!/\.[cm]?js$/.test(path)) {
    // Running from source through tsx: point at the checkout's launcher, which prefers the build.
    const launcher = join(dirname(path), '..', '..', 'bin', 'corral.mjs');
    if (!existsSync(launcher)) throw new Error(`cannot find bin/corral.mjs beside ${path}`);
    path = realpathSync(launcher);
  }
  return `${shellQuote(node)} ${shellQuote(path)}`;
}

export function hookCommand(prefix: string, agent: string, event: string): string {
  return `${prefix} hook ${agent} ${event}`;
}
