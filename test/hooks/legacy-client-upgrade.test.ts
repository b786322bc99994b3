// Agents' settings written by an earlier Corral run `bash <data dir>/hooks/corral-hook`: a bash client
// that posted the payload and the token to whatever held a TCP port (issue 51). A running service
// replaces that client with the socket client, which runs under bash as under perl; the old client is
// the one an earlier release wrote (test/fixtures/hooks/legacy-bash-client.sh, rendered from it).
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { upgradeLegacyHookClient } from '../../main/core/hooks-setup/hook-client-script';
import { tempDirForTest } from '../support/spawned-groups';

const LEGACY = readFileSync(join(__dirname, '../fixtures/hooks/legacy-bash-client.sh'), 'utf8');
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** Someone holding the old port, answering as Corral did: what the old client printed as Corral's note. */
async function squatter(): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.on('error', () => undefined);
    socket.once('data', () =>
      socket.end(
        'HTTP/1.1 200 OK\r\nx-corral-hook: 1\r\ncontent-length: 9\r\nconnection: close\r\n\r\n{"forged"',
      ),
    );
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { port, connections: () => connections };
}

/** Runs the client as an agent would, without blocking this process (the squatter lives in it). */
function runClient(
  shell: 'bash' | 'perl',
  client: string,
): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(shell, [client, 'hook', 'claude-code', 'PostToolUse'], {
      env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.on('close', (status) => resolve({ status, stdout }));
    child.stdin.end('{"hook_event_name":"PostToolUse"}');
  });
}

describe('an earlier Corral’s TCP hook client', () => {
  it('is replaced by the socket client, which then never talks to the port, under bash as under perl', async () => {
    const dataDir = tempDirForTest('corral-legacy-');
    const hooks = join(dataDir, 'hooks');
    mkdirSync(hooks, { recursive: true, mode: 0o700 });
    chmodSync(dataDir, 0o700);
    const held = await squatter();
    const endpoint = join(hooks, 'endpoint');
    writeFileSync(endpoint, `${held.port} ${'ab'.repeat(32)}\n`, { mode: 0o600 });
    const oneShot = join(dataDir, 'one-shot');
    writeFileSync(oneShot, '#!/bin/sh\ncat >/dev/null\necho "one-shot $2 $3"\n', { mode: 0o700 });
    const client = join(hooks, 'corral-hook');
    writeFileSync(
      client,
      LEGACY.replaceAll('@ENDPOINT@', `'${endpoint}'`).replaceAll('@ONE_SHOT@', `'${oneShot}'`),
      {
        mode: 0o700,
      },
    );

    // What the old client did: it sent the call (and the token) to whoever held the port. (Whether it
    // printed the answer depends on its one-second reads on a loaded machine; the connection does not.)
    expect((await runClient('bash', client)).status).toBe(0);
    expect(held.connections()).toBe(1);

    expect(upgradeLegacyHookClient(dataDir)).toBe(true);
    expect(readFileSync(client, 'utf8')).not.toContain('/dev/tcp/');
    // No Corral listens on the socket: the one-shot hook answers; the port hears nothing more.
    expect(await runClient('bash', client)).toEqual({
      status: 0,
      stdout: 'one-shot claude-code PostToolUse\n',
    });
    expect(await runClient('perl', client)).toEqual({
      status: 0,
      stdout: 'one-shot claude-code PostToolUse\n',
    });
    expect(held.connections()).toBe(1);
    expect(upgradeLegacyHookClient(dataDir)).toBe(false);
  });
});
