import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GroupView } from '../../shared/model';
import { createCorralService } from '../../main/core/create-service';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { runCli } from '../support/run-cli';
import { removeDir, spawnGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

function configWith(agents: unknown[]): string {
  const dir = tempDir('corral-patterns-');
  const path = join(dir, 'config.json');
  writeFileSync(path, JSON.stringify({ agents }));
  return path;
}

describe('user-configured patterns', () => {
  it('a catastrophically backtracking pattern does not hang corral ps on a hostile argv', async () => {
    // 49 a's and a b: JavaScript's backtracking engine tries 2^49 ways to split them before failing.
    const hostile = `${'a'.repeat(49)}b`;
    const group = spawnGroup(`exec -a ${hostile} sleep 600`);
    await waitFor('the hostile argv', () =>
      readFileSync(`/proc/${group.pid}/cmdline`, 'latin1').startsWith(hostile),
    );
    const config = configWith([{ name: 'greedy', commandPatterns: ['^(a|aa)+$', '^(a|aa)+b 600$'] }]);
    const ps = await runCli(['ps', '--all', '--json'], { env: { CORRAL_CONFIG: config }, timeoutMs: 30_000 });
    expect(ps.stderr).toBe('');
    expect(ps.code).toBe(0);
    const groups = (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups;
    // The second pattern matches the whole command line: the process is that agent, found in linear time.
    expect(groups.find((g) => g.pgid === group.pgid)?.processes[0]?.command).toBe(`${hostile} 600`);
    expect(groups.find((g) => g.pgid === group.pgid)?.agent?.name).toBe('greedy');
  });

  it('a pattern that cannot run in linear time is refused at config load, named', async () => {
    const config = configWith([{ name: 'backref', commandPatterns: ['(a+)\\1'] }]);
    const ps = await runCli(['ps', '--all'], { env: { CORRAL_CONFIG: config } });
    expect(ps.code).toBe(0);
    expect(ps.stderr).toContain(
      'agents[0].commandPatterns: the pattern "(a+)\\\\1" cannot be run in linear time',
    );
  });

  it('and through a settings request, with nothing changed', async () => {
    const running = createCorralService({
      config: { path: '(test)', settings: DEFAULT_SETTINGS, errors: [] },
      dataDir: tempDir('corral-data-'),
      persistSettings: false,
    });
    try {
      const update = await running.service.updateSettings({
        agents: [{ name: 'look', commandPatterns: ['(?<=x)y'] }],
      });
      expect(update.ok).toBe(false);
      expect(!update.ok && update.errors.join('\n')).toContain(
        'the pattern "(?<=x)y" cannot be run in linear time',
      );
      expect(running.service.settings().agents).toEqual(DEFAULT_SETTINGS.agents);
    } finally {
      await running.stop();
    }
  });
});
