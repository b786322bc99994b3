// The packaged app's native modules (koffi on macOS, libsql where Electron's Node has no node:sqlite)
// come as per-platform, per-architecture packages: a build for the wrong architecture installs fine and
// fails only when a module is loaded. Load them first, so a failure is a dialog naming the module, not
// a silent exit.
import { createRequire } from 'node:module';
import { sqliteDriverName, type SqliteDriverName } from '../core/storage/sqlite-driver';

export interface NativeFailure {
  module: string;
  message: string;
}

/** The modules this app loads: libsql only when the store uses it (sqlite-driver.ts). */
export function nativeModulesFor(
  platform: NodeJS.Platform,
  sqlite: SqliteDriverName = sqliteDriverName(),
): string[] {
  const store = sqlite === 'libsql' ? ['libsql'] : [];
  return platform === 'darwin' ? [...store, 'koffi'] : store;
}

/** Loads each module; returns those that failed, with the loader's message. */
export function checkNativeModules(
  modules: readonly string[],
  load: (id: string) => unknown = typeof require === 'function' ? require : createRequire(import.meta.url),
): NativeFailure[] {
  const failures: NativeFailure[] = [];
  for (const module of modules) {
    try {
      load(module);
    } catch (err) {
      failures.push({ module, message: err instanceof Error ? err.message : String(err) });
    }
  }
  return failures;
}

export function describeNativeFailures(failures: readonly NativeFailure[], arch: string): string {
  return [
    `Corral cannot load ${failures.length === 1 ? 'a native module' : 'its native modules'} on this ${arch} machine:`,
    ...failures.map((f) => `• ${f.module}: ${f.message.split('\n')[0]}`),
    '',
    'This build was probably made for another architecture. Install the build for this Mac (Apple silicon: arm64, Intel: x64).',
  ].join('\n');
}
