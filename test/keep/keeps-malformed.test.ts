import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GroupView } from '../../shared/model';
import { runCli, type CliResult } from '../support/run-cli';
import { spawnGroup, tempDirForTest } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const cli = (dir: string, args: string[]): Promise<CliResult> =>
  runCli(args, { env: { CORRAL_DATA_DIR: dir, CORRAL_CONFIG: '/nonexistent' } });

/** A stack trace's frames: `    at fn (file:line:col)`. */
const STACK_FRAME = /^\s+at /m;

async function liveGroupId(dir: string): Promise<string> {
  const group = spawnGroup('sleep 600 & echo $! > "$DIR/pid"; wait');
  await group.ready('pid');
  return waitFor('the group in ps --all', async () => {
    const ps = await cli(dir, ['ps', '--all', '--json']);
    return (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups.find((g) => g.pgid === group.pgid)?.id;
  });
}

describe(
  'a keep list Corral cannot read is refused in one line, never overwritten',
  { timeout: 120_000 },
  () => {
    for (const [what, text] of [
      ['broken JSON', '{"version": 1, "keeps": [{"groupId": "1:1:1",'],
      ['no keeps list', '{"version": 1, "kept": []}\n'],
    ] as const) {
      it(`${what}: keep, unkeep and keep --list refuse naming the file, and ps says so`, async () => {
        const dir = tempDirForTest('corral-keeps-bad-');
        const path = join(dir, 'keeps.json');
        writeFileSync(path, text, { mode: 0o600 });
        const id = await liveGroupId(dir);

        for (const args of [
          ['keep', id],
          ['unkeep', id],
          ['keep', '--list'],
        ]) {
          const run = await cli(dir, args);
          expect(run.code, args.join(' ')).toBe(1);
          expect(run.stderr).toContain(`${path} is not a keep list Corral can read`);
          expect(run.stderr.trim().split('\n')).toHaveLength(1);
          expect(run.stderr).not.toMatch(STACK_FRAME);
          expect(readFileSync(path, 'utf8')).toBe(text);
        }
        const ps = await cli(dir, ['ps', '--all', '--json']);
        expect(ps.code).toBe(0);
        expect(ps.stderr).toContain(`${path} is not a keep list Corral can read`);
        expect(readFileSync(path, 'utf8')).toBe(text);
      });
    }

    it('a refused keep list (a link) is a one-line error, no stack trace', async () => {
      const dir = tempDirForTest('corral-keeps-link-');
      const target = join(dir, 'elsewhere.json');
      writeFileSync(target, '{"version": 1, "keeps": []}\n', { mode: 0o600 });
      symlinkSync(target, join(dir, 'keeps.json'));
      const list = await cli(dir, ['keep', '--list']);
      expect(list.code).toBe(1);
      expect(list.stderr).toContain('keeps.json');
      expect(list.stderr.trim().split('\n')).toHaveLength(1);
      expect(list.stderr).not.toMatch(STACK_FRAME);
    });
  },
);
