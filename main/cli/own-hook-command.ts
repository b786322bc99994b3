import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { hookCommandPrefix } from '../core/facade/setup';
import { resolveHookCommand, type HookCommandResolution } from '../core/facade/setup';
import { installedCorralCommand } from '../core/facade/setup';
import { shellQuote } from '../core/facade/setup';

/**
 * The command line that runs this very CLI: the installed `corral` command, else Node and the built
 * script (or the checkout's launcher when running from source), by absolute paths.
 */
export function ownCliCommand(
  env: Readonly<Record<string, string | undefined>>,
  script: string | undefined = process.argv[1],
  node: string = process.execPath,
): string | null {
  if (!script) return null;
  const installed = installedCorralCommand(script, env);
  if (installed) return shellQuote(installed);
  const path = realpathSync(script);
  if (/\.[cm]?js$/.test(path)) return `${shellQuote(node)} ${shellQuote(path)}`;
  const launcher = join(dirname(path), '..', '..', 'bin', 'corral.mjs');
  return existsSync(launcher) ? `${shellQuote(node)} ${shellQuote(realpathSync(launcher))}` : null;
}

/**
 * What hooks installed from `corral serve`'s page run: a `corral` on PATH as the desktop finds it,
 * else this very CLI by absolute paths, as `corral hooks install` writes them, so that the page's
 * Install works on a machine where `corral` is not on PATH (a checkout, `npx`). `cli` is the command
 * the page shows for doing the same in a terminal.
 */
export function ownHookCommand(
  env: Readonly<Record<string, string | undefined>> = process.env,
  script: string | undefined = process.argv[1],
): HookCommandResolution {
  const found = resolveHookCommand(env);
  const cli = ownCliCommand(env, script) ?? undefined;
  // A `corral` on PATH runs the CLI too; CORRAL_HOOK_COMMAND may name a hook-only entry.
  if ('command' in found) return env.CORRAL_HOOK_COMMAND?.trim() && cli ? { ...found, cli } : found;
  try {
    return { command: hookCommandPrefix(env, script), ...(cli ? { cli } : {}) };
  } catch {
    return found;
  }
}
