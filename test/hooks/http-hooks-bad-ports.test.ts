import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureHttpHookEndpoint, readHookEndpoint } from '../../main/core/hooks-setup/hook-endpoint';
import {
  fetchRefusesPort,
  httpHookPortUsable,
  privilegedHookPort,
  unprivilegedPortStart,
} from '../../main/core/hooks-setup/http-hooks-port';
import { ensureOwnDataDir } from '../../main/core/storage/own-data-dir';
import { probeHookEndpoint } from '../../main/core/hooks-setup/hook-endpoint-probe';
import { hookEndpointLine } from '../../main/cli/commands/hook-endpoint-line';
import { tempDirForTest } from '../support/spawned-groups';
import { describeUnless } from '../support/skip';

/** A /proc with the kernel's default unprivileged start (1024) and nothing listening. */
function quietProc(): string {
  const proc = tempDirForTest('corral-bad-ports-proc-');
  mkdirSync(join(proc, 'sys', 'net', 'ipv4'), { recursive: true });
  writeFileSync(join(proc, 'sys', 'net', 'ipv4', 'ip_unprivileged_port_start'), '1024\n');
  mkdirSync(join(proc, 'net'));
  const header =
    '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';
  writeFileSync(join(proc, 'net', 'tcp'), header);
  writeFileSync(join(proc, 'net', 'tcp6'), header);
  return proc;
}

/** Whether Node's own fetch refuses to connect to the port (it says "bad port" before any connection). */
async function nodeFetchRefuses(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(5_000) });
    return false;
  } catch (err) {
    return String((err as { cause?: unknown }).cause).includes('bad port');
  }
}

describe("the http hooks' port: never one a fetch client refuses", () => {
  it('names the ports Node’s fetch refuses, and only those, in the range the port is drawn from', async () => {
    for (let port = 700; port < 1024; port++)
      expect(fetchRefusesPort(port), `port ${port}`).toBe(await nodeFetchRefuses(port));
  });

  it('draws no such port, however often it is drawn', () => {
    const proc = quietProc();
    const drawn = new Set<number>();
    for (let i = 0; i < 3000; i++) drawn.add(privilegedHookPort(proc));
    // 3,000 draws from 320 ports: every one is drawn, and none of 989, 990, 993 and 995.
    expect(drawn.size).toBe(320);
    for (const port of [989, 990, 993, 995]) expect(drawn.has(port)).toBe(false);
    expect(httpHookPortUsable(993, proc)).toBe(false);
    expect(httpHookPortUsable(994, proc)).toBe(true);
  });

  it('corral hooks status says so of an endpoint an earlier install put on such a port', async () => {
    const data = tempDirForTest('corral-bad-ports-status-');
    ensureOwnDataDir(data, 'hooks');
    writeFileSync(join(data, 'hooks', 'endpoint'), `993 ${'a'.repeat(64)}\n`, { mode: 0o600 });
    const probe = await probeHookEndpoint(data, { http: true });
    expect(probe.http).toMatchObject({ port: 993, fetchRefused: true });
    const line = hookEndpointLine(probe, { client: [], http: [{ label: 'Claude Code', port: 993 }] });
    expect(line).toContain(
      "Port 993 is one that fetch clients refuse to connect to (the Fetch Standard's bad ports), so an agent's http hooks may never reach it: run `corral hooks install --http` again",
    );
    writeFileSync(join(data, 'hooks', 'endpoint'), `994 ${'a'.repeat(64)}\n`, { mode: 0o600 });
    expect((await probeHookEndpoint(data, { http: true })).http?.fetchRefused).toBeUndefined();
  });
});

const rootReason =
  process.platform !== 'linux' || process.geteuid?.() !== 0
    ? 'http hooks are installed by root on Linux only'
    : unprivilegedPortStart() !== 1024
      ? `this kernel's unprivileged port start is ${unprivilegedPortStart()}, not 1024`
      : null;

describeUnless(rootReason)('an http hooks endpoint written before on a port fetch refuses', () => {
  it('is replaced by a fresh one, and a good one is kept', () => {
    const data = tempDirForTest('corral-bad-ports-data-');
    ensureOwnDataDir(data, 'hooks');
    writeFileSync(join(data, 'hooks', 'endpoint'), `993 ${'a'.repeat(64)}\n`, { mode: 0o600 });
    const replaced = ensureHttpHookEndpoint(data);
    expect(replaced.port).not.toBe(993);
    expect(fetchRefusesPort(replaced.port)).toBe(false);
    expect(readHookEndpoint(data)).toEqual(replaced);
    expect(ensureHttpHookEndpoint(data)).toEqual(replaced);
  });
});
