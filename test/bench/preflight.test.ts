import { execFile } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir } from '../support/spawned-groups';

const SCRIPT = fileURLToPath(new URL('../../scripts/bench-preflight.mjs', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

function preflight(path: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [SCRIPT], { env: { PATH: path } }, (err, _out, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stderr }),
    ),
  );
}

/** A PATH holding only the named tools, linked from where this machine has them. */
function pathWith(...tools: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'corral-path-'));
  dirs.push(dir);
  for (const tool of tools) symlinkSync(join('/usr/bin', tool), join(dir, tool));
  return dir;
}

describe('npm run bench preflight', () => {
  it('names tini and the C compiler when missing, and what to install', async () => {
    const r = await preflight(pathWith('unshare'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("'tini' not found");
    expect(r.stderr).toContain("'cc' not found");
    expect(r.stderr).toContain('apt-get install tini gcc');
  });

  it('passes silently when everything is there', async () => {
    const r = await preflight(pathWith('unshare', 'tini', 'cc'));
    expect(r).toEqual({ code: 0, stderr: '' });
  });
});
