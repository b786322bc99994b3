// A CLAUDE_CONFIG_DIR Corral may not enter (EACCES) never blinds it: ps and watch still show the leak.
import { chmodSync, chownSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { GroupView } from '../../shared/model';
import { AS_NOBODY, noteSkippedAsNobody, nobodyCannotRunCheckout } from '../support/as-nobody';
import { FakeAgent } from '../support/fake-agent';
import { runCli } from '../support/run-cli';
import {
  cleanUpUntrusted,
  corralEnv,
  leak,
  leakIn,
  MARKERS,
  orphanedEvent,
  startWatch,
  tempRoot,
} from './untrusted-corral';

afterEach(cleanUpUntrusted);

noteSkippedAsNobody('untrusted-config-dir.test.ts');
const NOBODY_UID = 65534;
const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const SOURCE_CLI = fileURLToPath(new URL('../../main/cli/corral.ts', import.meta.url));

// EACCES needs a Corral that is not root (root passes every permission check): the agent and Corral run
// as nobody, the agent's CLAUDE_CONFIG_DIR is root's and closed to others.
describe.skipIf(nobodyCannotRunCheckout !== null)('a CLAUDE_CONFIG_DIR Corral may not enter (EACCES)', () => {
  async function closedConfigAgent(): Promise<{ agent: FakeAgent; root: string }> {
    const root = tempRoot();
    chmodSync(root, 0o755);
    const configDir = join(root, 'config');
    mkdirSync(configDir, { mode: 0o700 });
    const cwd = join(root, 'project');
    mkdirSync(cwd);
    chownSync(cwd, NOBODY_UID, NOBODY_UID);
    corralEnv(root); // made now, then given to nobody
    chownSync(join(root, 'corral-home'), NOBODY_UID, NOBODY_UID);
    const agent = await FakeAgent.start({
      markers: MARKERS,
      env: { CLAUDE_CONFIG_DIR: configDir, HOME: cwd },
      cwd,
      asUser: AS_NOBODY,
    });
    return { agent, root };
  }

  it('ps --json still lists the leak, and exits 0', async () => {
    const { agent, root } = await closedConfigAgent();
    const pgid = await leak(agent);
    const ps = await runCli(['ps', '--json'], {
      env: corralEnv(root),
      timeoutMs: 30_000,
      command: [...AS_NOBODY, process.execPath, TSX, SOURCE_CLI],
    });
    expect(ps.stderr).not.toMatch(/at .*\.ts:\d+/);
    expect(ps.code).toBe(0);
    expect(leakIn((JSON.parse(ps.stdout) as { groups: GroupView[] }).groups, pgid)).toBeDefined();
  });

  it('watch --json still reports a later leak', async () => {
    const { agent, root } = await closedConfigAgent();
    const first = await leak(agent);
    const watch = startWatch(root, AS_NOBODY);
    await orphanedEvent(watch, first);
    const later = await leak(agent);
    await orphanedEvent(watch, later);
  });
});
