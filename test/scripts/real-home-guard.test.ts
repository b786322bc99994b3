import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const GUARD = fileURLToPath(new URL('../../scripts/real-home-guard.mjs', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function guard(command: string, file: string, home: string) {
  return spawnSync(process.execPath, [GUARD, command, file], {
    env: { PATH: '/usr/bin:/bin', HOME: home },
    encoding: 'utf8',
  });
}

describe('scripts/real-home-guard.mjs (the test command fails if the real data directory changes)', () => {
  it('passes when nothing changed and names every file a run added, changed or removed', () => {
    const home = mkdtempSync(join(tmpdir(), 'corral-guard-home-'));
    dirs.push(home);
    const data = join(home, '.local', 'share', 'corral');
    mkdirSync(join(data, 'hooks'), { recursive: true });
    writeFileSync(join(data, 'hooks', 'ended-sessions.jsonl'), 'one\n');
    mkdirSync(join(home, '.claude'));
    writeFileSync(join(home, '.claude', 'settings.json'), '{}');
    const before = join(home, 'before.json');

    expect(guard('snapshot', before, home).status).toBe(0);
    expect(guard('compare', before, home)).toMatchObject({ status: 0, stderr: '' });

    mkdirSync(join(data, 'stop-requests'));
    writeFileSync(join(data, 'stop-requests', '50-1-2.json'), '{}');
    writeFileSync(join(home, '.claude', 'settings.json'), '{"hooks": {}}');
    rmSync(join(data, 'hooks', 'ended-sessions.jsonl'));
    const after = guard('compare', before, home);
    expect(after.status).toBe(1);
    expect(after.stderr).toContain(`added    ${join(data, 'stop-requests', '50-1-2.json')}`);
    expect(after.stderr).toContain(`changed  ${join(home, '.claude', 'settings.json')}`);
    expect(after.stderr).toContain(`removed  ${join(data, 'hooks', 'ended-sessions.jsonl')}`);
  });
});
