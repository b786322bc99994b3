import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookEndpointPath } from '../../main/core/hooks-setup/hook-endpoint';
import { writeOwnFileAtomically } from '../../main/core/storage/own-data-dir';
import { runCli } from '../support/run-cli';
import { removeDir } from '../support/spawned-groups';

// Http hooks are installed only by root (their port is one only root may bind).
const reason = process.geteuid?.() !== 0 ? 'http hooks are installed by root only' : undefined;
if (reason) console.warn(`[skipped] hooks status stale-token test: ${reason}`);

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

describe.skipIf(reason !== undefined)('corral hooks status: http hooks with a stale token', () => {
  it('notices the settings send a token the endpoint no longer holds, and says what to run', async () => {
    const home = mkdtempSync(join(tmpdir(), 'corral-stale-token-home-'));
    const data = mkdtempSync(join(tmpdir(), 'corral-stale-token-data-'));
    dirs.push(home, data);
    const env = { HOME: home, CORRAL_DATA_DIR: data, CORRAL_CONFIG: '/nonexistent' };
    const install = await runCli(['hooks', 'install', '--agent', 'claude-code', '--http'], { env });
    expect(install.code, install.stderr).toBe(0);
    const status = async () => {
      const r = await runCli(['hooks', 'status', '--agent', 'claude-code', '--json'], { env });
      return (JSON.parse(r.stdout) as { agents: Array<{ staleToken?: boolean }> }).agents[0]!;
    };
    expect((await status()).staleToken).toBeUndefined();

    // The endpoint made again (a new token on the same port), the settings left as they were.
    const [port] = readFileSync(hookEndpointPath(data), 'utf8').trim().split(' ');
    writeOwnFileAtomically(hookEndpointPath(data), `${port} ${randomBytes(32).toString('hex')}\n`);
    expect((await status()).staleToken).toBe(true);
    const text = await runCli(['hooks', 'status', '--agent', 'claude-code'], { env });
    expect(text.stdout).toContain('its http hooks send a token the hook endpoint no longer holds');
    expect(text.stdout).toContain('corral hooks install --http');

    // Installing again writes the current token.
    expect((await runCli(['hooks', 'install', '--agent', 'claude-code', '--http'], { env })).code).toBe(0);
    expect((await status()).staleToken).toBeUndefined();
  });
});
