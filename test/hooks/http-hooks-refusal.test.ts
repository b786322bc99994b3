import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readHookEndpoint } from '../../main/core/hooks-setup/hook-endpoint';
import { installHooks } from '../../main/core/hooks-setup/hooks-setup';
import { httpHooksRefusal } from '../../main/core/hooks-setup/http-hooks-port';
import { resolveDataDir } from '../../main/core/storage/data-dir';
import { removeDir } from '../support/spawned-groups';

const PREFIX = "/usr/bin/node '/opt/corral app/out/main/corral.js'";
const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) removeDir(h);
});

function place(): { env: Record<string, string>; home: string } {
  const home = mkdtempSync(join(tmpdir(), 'corral-hooks-home-'));
  homes.push(home);
  return { env: {}, home };
}

function dataDirOf(p: { env: Record<string, string>; home: string }): string {
  return resolveDataDir(p.env, process.platform, p.home);
}

describe('corral hooks install --http: only where no other user can take the port', () => {
  it('--http is refused, saying why and what to install instead, where another user could take the port', () => {
    const proc = mkdtempSync(join(tmpdir(), 'corral-fake-proc-'));
    homes.push(proc);
    mkdirSync(join(proc, 'sys', 'net', 'ipv4'), { recursive: true });
    // Every port is one any user may bind.
    writeFileSync(join(proc, 'sys', 'net', 'ipv4', 'ip_unprivileged_port_start'), '0\n');
    const refusal = httpHooksRefusal(proc);
    expect(refusal).toContain("Claude Code's http hooks cannot tell who listens on their TCP port");
    expect(refusal).toContain('`corral hooks install`');
    // Here, as root with the kernel's default (1024), they may be installed, on a port below it.
    if (
      process.geteuid?.() === 0 &&
      readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8').trim() === '1024'
    ) {
      expect(httpHooksRefusal()).toBeNull();
      const p = place();
      const c = installHooks('claude-code', p, PREFIX, false, true);
      expect(c.notice).toContain('only root may bind');
      expect(readHookEndpoint(dataDirOf(p))!.port).toBeLessThan(1024);
    }
  });
});
