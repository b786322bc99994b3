import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureOwnDataDir, readOwnFile, writeOwnFileAtomically } from '../storage/own-data-dir';
import { executablesOnPath, isExecutableFile } from './executables-on-path';
import { nativeHookClientSource } from './native-hook-client-source';

type Env = Readonly<Record<string, string | undefined>>;

/** What the built client prints for `--check`: proof the file runs, not merely that it was made. */
export const NATIVE_CLIENT_CHECK = 'corral-hook-native ok';

const COMPILE_TIMEOUT_MS = 60_000;

export function nativeHookClientPath(dataDir: string): string {
  return join(dataDir, 'hooks', 'corral-hook-native');
}

/**
 * The C compiler `hooks install` may use, or null. On macOS /usr/bin/cc is a stub that, without the
 * Command Line Tools, opens an install dialog; `xcode-select -p` says whether they are there without one.
 */
export function cCompiler(env: Env, platform: NodeJS.Platform = process.platform): string | null {
  if (platform === 'darwin') {
    const tools = spawnSync('/usr/bin/xcode-select', ['-p'], { stdio: 'ignore', timeout: 5_000 });
    return tools.status === 0 && isExecutableFile('/usr/bin/cc') ? '/usr/bin/cc' : null;
  }
  for (const name of ['cc', 'gcc', 'clang']) {
    const found = executablesOnPath(name, env)[0];
    if (found) return found;
  }
  return null;
}

export type NativeClientBuild = { path: string; reason?: undefined } | { path: null; reason: string };

/**
 * Builds the C hook client (native-hook-client-source.ts) in the user's hooks folder with `compiler`,
 * and checks that it runs. The source is kept beside it: an unchanged source and a client already
 * built are not built again. A failed build leaves no source (the next install tries again) and no
 * half-built file; a client an earlier install built stays, for the agents' settings that run it.
 */
export function buildNativeHookClient(
  dataDir: string,
  oneShotPrefix: string,
  compiler: string,
  platform: NodeJS.Platform = process.platform,
): NativeClientBuild {
  ensureOwnDataDir(dataDir, 'hooks');
  const path = nativeHookClientPath(dataDir);
  const sourcePath = `${path}.c`;
  const source = nativeHookClientSource(dataDir, oneShotPrefix);
  try {
    if (readOwnFile(sourcePath) === source && isExecutableFile(path)) return { path };
  } catch {
    // Not the user's file, or not a file: built again below, through fresh files.
  }
  const built = `${path}.${process.pid}.new`;
  const fail = (reason: string): NativeClientBuild => {
    rmSync(built, { force: true });
    rmSync(sourcePath, { force: true });
    return { path: null, reason };
  };
  try {
    writeOwnFileAtomically(sourcePath, source);
  } catch (err) {
    return fail(`could not write ${sourcePath}: ${(err as Error).message}`);
  }
  const compile = (flags: string[]): SpawnSyncReturns<string> =>
    spawnSync(compiler, [...flags, '-o', built, sourcePath], {
      encoding: 'utf8',
      timeout: COMPILE_TIMEOUT_MS,
    });
  // Linked statically where the C library allows it (Linux): no dynamic loader at each start, a few
  // tenths of a ms a call. macOS has no static C library; a Linux without libc.a links dynamically.
  let compiled = platform === 'linux' ? compile(['-O2', '-static']) : null;
  if (compiled?.status !== 0) compiled = compile(['-O2']);
  if (compiled.status !== 0) {
    const why =
      compiled.error?.message ?? (compiled.stderr.trim().split('\n')[0] || `exit ${compiled.status}`);
    return fail(`${compiler} could not build it: ${why}`);
  }
  chmodSync(built, 0o700);
  const check = spawnSync(built, ['--check'], { encoding: 'utf8', timeout: 5_000 });
  if (check.stdout?.trim() !== NATIVE_CLIENT_CHECK) return fail(`the built client did not run (${built})`);
  renameSync(built, path);
  return { path };
}
