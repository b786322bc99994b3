import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { removeDir } from '../../support/spawned-groups';

export type NativeFixture = 'hold' | 'fan-out' | 'no-argv' | 'vfork-hold';

const here = fileURLToPath(new URL('.', import.meta.url));
const built = new Map<NativeFixture, string>();
let outDir: string | null = null;
// The binaries serve the whole test file that imports this module: removed after its tests.
afterAll(() => {
  if (outDir) removeDir(outDir);
  outDir = null;
  built.clear();
});

/** Path of a small C fixture from this folder, compiled with the system cc on first use. */
export function nativeFixture(name: NativeFixture): string {
  const known = built.get(name);
  if (known) return known;
  outDir ??= mkdtempSync(join(tmpdir(), 'corral-native-'));
  const binary = join(outDir, name);
  execFileSync('cc', ['-O1', '-Wall', '-o', binary, join(here, `${name}.c`)], { stdio: 'pipe' });
  built.set(name, binary);
  return binary;
}

/** The children fan-out reported (one pid a line), and its error line when a fork failed. */
export function fanOutResult(text: string): { pids: number[]; error: string | null } {
  const lines = text.split('\n').filter((l) => l !== '');
  const error = lines[0]?.startsWith('error:') ? lines.shift()! : null;
  return { pids: lines.map(Number), error };
}
