import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * Each test file gets a temporary directory of its own as TMPDIR, which os.tmpdir() reads on every
 * call and every child inherits (the test support's explicit environments pass it on, see
 * test-tmpdir.ts). After the file's own hooks (vitest runs "after" hooks in reverse order of
 * registration, and this setup file registers first), anything still in it fails the file: a test
 * that leaves a temporary file or directory behind leaks it, as a test that leaves a process does.
 * The directory is removed either way.
 */
const systemTmp = process.env.CORRAL_TEST_SYSTEM_TMPDIR ?? tmpdir();
process.env.CORRAL_TEST_SYSTEM_TMPDIR = systemTmp;
const root = process.env.CORRAL_TEST_TMP_ROOT ?? systemTmp;
const dir = mkdtempSync(join(root, 'file-'));
// Like /tmp: the tests that run a child as `nobody` need to reach (and write in) it too.
chmodSync(dir, 0o1777);

// Tools keep caches in the temporary directory on purpose, to outlive the run: tsx's compile cache
// ($TMPDIR/tsx-<uid>), Node's module compile cache (node-compile-cache, which tsc enables) and jiti's.
// Each file shares the system's, linked in, so what the tests run is not compiled afresh per file;
// they are not the tests' to remove.
const TOOL_CACHE = /^(tsx-\d+|node-compile-cache|jiti)$/;
const linked = new Set<string>();
for (const entry of readdirSync(systemTmp)) {
  if (!TOOL_CACHE.test(entry)) continue;
  symlinkSync(join(systemTmp, entry), join(dir, entry));
  linked.add(entry);
}
const previous = process.env.TMPDIR;
process.env.TMPDIR = dir;

function describeEntry(name: string): string {
  const path = join(dir, name);
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return name;
  const inside = readdirSync(path);
  const shown = inside.slice(0, 5).join(', ');
  return `${name}/ (${inside.length} entries${inside.length > 0 ? `: ${shown}${inside.length > 5 ? ', …' : ''}` : ''})`;
}

afterAll(() => {
  if (previous === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previous;
  try {
    const left = readdirSync(dir).filter((name) => !(linked.has(name) || TOOL_CACHE.test(name)));
    if (left.length > 0) {
      throw new Error(
        `this test file left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in its temporary directory ${dir}:\n` +
          left.map(describeEntry).join('\n'),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
