import { hookClientPath, perlProgram, writeHookClient } from './hook-client-script';
import { buildNativeHookClient, cCompiler, nativeHookClientPath } from './native-hook-client';
import { shellQuote } from './shell-quote';

export interface HookClientChoice {
  /** What the agent's hook command starts with: a client, or the one-shot command itself. */
  prefix: string;
  /** Said to the user when the cheapest client could not be had. */
  notice?: string;
}

/**
 * The command hooks' client, cheapest first: the C client where a C compiler is (about 1 ms a call),
 * the perl client (about 3 ms more: perl's start and compile), else the one-shot hook itself (a Node
 * process a call). The perl client is written whenever perl is there, so that settings an earlier
 * install wrote (which run it) still ask the running Corral. A dry run builds and writes nothing.
 */
export function chooseHookClient(
  dataDir: string,
  oneShotPrefix: string,
  env: Readonly<Record<string, string | undefined>>,
  dryRun: boolean,
): HookClientChoice {
  const perl = perlProgram(env);
  let perlPrefix: string | null = perl ? `${shellQuote(perl)} ${shellQuote(hookClientPath(dataDir))}` : null;
  if (perl && !dryRun) {
    try {
      writeHookClient(dataDir, oneShotPrefix);
    } catch {
      // A data directory Corral may not write: no client of either kind.
      perlPrefix = null;
    }
  }
  const compiler = cCompiler(env);
  let nativeFailure: string | null = null;
  if (compiler && dryRun) return { prefix: shellQuote(nativeHookClientPath(dataDir)) };
  if (compiler) {
    try {
      const built = buildNativeHookClient(dataDir, oneShotPrefix, compiler);
      if (built.path !== null) return { prefix: shellQuote(built.path) };
      nativeFailure = built.reason;
    } catch (err) {
      nativeFailure = (err as Error).message;
    }
  }
  if (perlPrefix) {
    return nativeFailure
      ? {
          prefix: perlPrefix,
          notice: `the C hook client could not be built (${nativeFailure}): the perl client answers instead, about 3 ms more per tool call.`,
        }
      : { prefix: perlPrefix };
  }
  if (perl) return { prefix: oneShotPrefix };
  return {
    prefix: oneShotPrefix,
    notice: `neither a C compiler (cc) nor perl was found (/usr/bin/perl, or on PATH), which the hook client needs: each tool call runs the one-shot hook instead (a Node process per call), even while a Corral service runs.`,
  };
}

/** Where either hook client lives: the hook commands that run one of them ask the running Corral. */
export function hookClientPaths(dataDir: string): string[] {
  return [hookClientPath(dataDir), nativeHookClientPath(dataDir)];
}
