import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  chownSync,
  existsSync,
  lchownSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { IncidentStore } from '../../main/core/storage/incident-store';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs';

// A data directory another user controls: Corral writes nothing there and follows no link there,
// and the hook still exits 0 with no output (a hook never fails the agent's tool call).

const CLI = fileURLToPath(new URL('../../main/cli/corral.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const NOBODY = 65534;
const asRoot = process.geteuid?.() === 0;

const tempDir = tempDirsRemovedAfterEach();

function runHook(
  event: string,
  dataDir: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const payload = JSON.stringify({
    session_id: randomUUID(),
    hook_event_name: event,
    tool_name: 'Bash',
    tool_use_id: 'toolu_01Ownership',
    tool_input: { command: 'true' },
  });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX, CLI, 'hook', 'claude-code', event], {
      env: { PATH: '/usr/bin:/bin', HOME: dataDir, CORRAL_DATA_DIR: dataDir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(payload);
  });
}

/** A root-owned file an attacker would like Corral to append to; its content and mtime, to compare. */
function rootOwnedTarget(): { path: string; before: () => string } {
  const path = join(tempDir('corral-root-target-'), 'root-only.conf');
  writeFileSync(path, 'root: do not touch\n', { mode: 0o644 });
  const snapshot = () => `${readFileSync(path, 'utf8')}|${statSync(path).mtimeMs}|${statSync(path).size}`;
  return { path, before: snapshot };
}

/** `nobody`'s data directory with `hooks/ended-sessions.jsonl` and `hooks/hook-errors.log` planted as links to `target`. */
function plantedDataDir(target: string, owner: number): string {
  const data = tempDir('corral-planted-data-');
  const hooks = join(data, 'hooks');
  mkdirSync(hooks);
  for (const name of ['ended-sessions.jsonl', 'hook-errors.log']) {
    symlinkSync(target, join(hooks, name));
    lchownSync(join(hooks, name), owner, owner);
  }
  chownSync(hooks, owner, owner);
  chownSync(data, owner, owner);
  return data;
}

describe.skipIf(!asRoot)(
  'a data directory Corral must not write in (run as root)',
  { timeout: 120_000 },
  () => {
    it("another user's data directory with a planted link: the SessionEnd hook writes nothing, exits 0, prints nothing", async () => {
      const target = rootOwnedTarget();
      const snapshot = target.before();
      const data = plantedDataDir(target.path, NOBODY);

      for (const event of ['SessionEnd', 'PreToolUse', 'PostToolUse']) {
        const r = await runHook(event, data);
        expect(r, event).toEqual({ code: 0, stdout: '', stderr: '' });
      }
      expect(target.before()).toBe(snapshot);
      expect(readdirSync(join(data, 'hooks')).sort()).toEqual(['ended-sessions.jsonl', 'hook-errors.log']);
    });

    it('a link planted in an own data directory is never followed: the refusal is logged, the target untouched', async () => {
      const target = rootOwnedTarget();
      const snapshot = target.before();
      const data = tempDir('corral-own-data-');
      const hooks = join(data, 'hooks');
      mkdirSync(hooks);
      symlinkSync(target.path, join(hooks, 'ended-sessions.jsonl'));

      const r = await runHook('SessionEnd', data);
      expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
      expect(target.before()).toBe(snapshot);
      const log = readFileSync(join(hooks, 'hook-errors.log'), 'utf8');
      expect(log).toContain(
        `Corral refuses ${join(hooks, 'ended-sessions.jsonl')} in its data directory: it is a symbolic link`,
      );
    });

    it("a data directory inside another user's folder is not created, and the history says why", async () => {
      const folder = tempDir('corral-nobody-home-');
      chownSync(folder, NOBODY, NOBODY);
      const data = join(folder, '.local', 'share', 'corral');

      const r = await runHook('SessionEnd', data);
      expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
      expect(existsSync(join(folder, '.local'))).toBe(false);

      const store = IncidentStore.open(data);
      try {
        expect(store.problem).toBe(
          `Incidents are kept in memory only and will be lost when Corral quits: Corral refuses the data directory ${data}: it is inside ${folder}, which belongs to uid ${NOBODY}, not to you (uid 0). Its data directory must be your own; set CORRAL_DATA_DIR to a directory you own.`,
        );
      } finally {
        store.close();
      }
      expect(existsSync(join(folder, '.local'))).toBe(false);

      const planted = plantedDataDir(rootOwnedTarget().path, NOBODY);
      const other = IncidentStore.open(planted);
      try {
        expect(other.problem).toContain(`belongs to uid ${NOBODY}, not to you (uid 0)`);
      } finally {
        other.close();
      }
    });
  },
);
