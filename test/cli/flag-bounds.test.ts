// The bounds of the CLI's flags are the ones declared where the value goes: `--limit` and `--session` as
// the request contract takes them (the UI's requests pass the same checks), `--grace-ms` as the config's
// teardown.graceMs. Each is read in one place (main/cli/flag-values.ts) for every command.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_INCIDENTS_LIMIT } from '../../shared/incident-filter';
import { MAX_SESSION_ID_LENGTH } from '../../shared/session-id';
import { NUMERIC_SETTINGS } from '../../shared/settings-table';
import { runCli } from '../support/run-cli';
import { tempDirRemovedAfterAll } from '../support/temp-dirs';

const home = tempDirRemovedAfterAll('corral-flag-bounds-');
const env = { HOME: home, CORRAL_DATA_DIR: join(home, 'data'), CORRAL_CONFIG: join(home, 'config.json') };

describe('the CLI takes the bounds declared for each value', () => {
  it('history --limit: up to what a history request may ask, and no more', async () => {
    const most = await runCli(['history', '--json', '--limit', String(MAX_INCIDENTS_LIMIT)], { env });
    expect(most.stderr).toBe('');
    expect(most.code).toBe(0);
    const over = await runCli(['history', '--json', '--limit', String(MAX_INCIDENTS_LIMIT + 1)], { env });
    expect(over.code).toBe(2);
    expect(over.stderr).toContain(`--limit: expected 1..${MAX_INCIDENTS_LIMIT}, got`);
  });

  // A session id as long as a request may carry names no session here: found nothing (3), not misused (2).
  it.each([['ps'], ['kill'], ['keep'], ['unkeep']])(
    '%s --session: an id as long as the contract allows is a session id, one longer is not',
    async (command) => {
      const longest = 's'.repeat(MAX_SESSION_ID_LENGTH);
      const found = await runCli([command, '--session', longest, '--json'], { env });
      expect(found.stderr).not.toContain('is not a session id');
      expect(found.code).not.toBe(2);
      const over = await runCli([command, '--session', `${longest}s`, '--json'], { env });
      expect(over.code).toBe(2);
      expect(over.stderr).toContain(`--session: '${longest}s' is not a session id`);
    },
  );

  it("kill --grace-ms: the config's bounds for teardown.graceMs, in its help and in what it takes", async () => {
    const { min, max } = NUMERIC_SETTINGS.graceMs;
    const help = await runCli(['kill', '--help'], { env });
    expect(help.stdout).toContain(`(${min}..${max}; default from the config)`);
    const over = await runCli(['kill', '--session', 'no-such-session', '--grace-ms', String(max + 1)], {
      env,
    });
    expect(over.code).toBe(2);
    expect(over.stderr).toContain(`--grace-ms: expected ${min}..${max} ms, got`);
  });
});
