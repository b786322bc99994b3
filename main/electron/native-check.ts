// The packaged app's native modules (koffi on macOS, libsql everywhere) come as per-platform,
// per-architecture packages: a build for the wrong architecture installs fine and fails only when a
// module is loaded. Load them first, so a failure is a dialog naming the module, not a silent exit.
import { createRequire } from 'node:module';

export interface NativeFailure {
  module: string;
  message: string;
}

export function nativeModulesFor(platform: NodeJS.Platform): string[] {
  return platform === 'darwin' ? ['libsql', 'koffi'] : ['libsql'];
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
