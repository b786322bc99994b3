import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawnGroup } from '../support/spawned-groups';

const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const READS = fileURLToPath(new URL('../fixtures/full-fd-table-reads.ts', import.meta.url));

/** The readers' outcomes in a process of its own whose table is filled to its (low) limit. */
function readsWithFullTable(
  pid: number,
  startKey: number,
): Promise<{ full: Record<string, unknown>; freed: Record<string, unknown> }> {
  return new Promise((resolve, reject) =>
    execFile(
      'prlimit',
      ['--nofile=128:128', '--', process.execPath, TSX, READS, String(pid), String(startKey)],
      { timeout: 30_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' } },
      (err, stdout, stderr) =>
        err ? reject(new Error(`the reads failed: ${String(err)}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    ),
  );
}

/**
 * Issue 51: a full descriptor table (EMFILE) is Corral's problem, never the process's. The readers say
 * they could not look; the sampler keeps the process unread (neither gone nor forgotten), reads it again
 * at the next look, and finds it once descriptors are free; the exit watch never calls it exited.
 */
describe('reads of /proc with a full descriptor table', () => {
  it('take EMFILE for "could not look", not for "gone", and read the process once descriptors are free', async () => {
    const group = spawnGroup('sleep 600');
    const startKey = Number(readFileSync(`/proc/${group.pid}/stat`, 'latin1').split(') ')[1]!.split(' ')[19]);
    const { full, freed } = await readsWithFullTable(group.pid, startKey);

    expect(full.reader).toEqual({ threw: 'ProcReadFailed', code: 'EMFILE' });
    expect(full.sampled).toEqual([]);
    expect(full.unread).toEqual([group.pid]);
    expect(full.failure).toMatch(/EMFILE \(too many open files\)/);
    // No pidfd to be had: the process is left to child lists, not reported as exited.
    expect(full.exitWatch).toBe('some');
    expect(full.exited).toEqual([]);
    // The hook's one-shot reader fails loudly instead of answering that nothing is there.
    expect(full.hook).toEqual({ threw: 'ProcReadFailed', code: 'EMFILE' });

    expect(freed).toEqual({ retried: true, sampled: [group.pid], unread: [], failure: null });
  });
});
