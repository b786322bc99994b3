import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProcessView } from '../../shared/model';
import { psGroups } from '../provenance/live-support';
import {
  CLAUDE_CODE_VERSION,
  claudeCodeSkipReason,
  makeClaudeHome,
  trackGroupsOfRun,
} from '../support/claude-code';
import { bgEnv, claudeCommand, prepareBgHome, removeProcessesOfRun } from '../support/claude-code-bg';
import { startFakeMessagesApi } from '../support/fake-messages-api';
import { tempDirForTest } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const skip = claudeCodeSkipReason();
if (skip) console.warn(`[skipped] Claude Code stale-service test: ${skip}`);

const isService = (p: ProcessView): boolean => p.argv[1] === 'daemon' && p.argv[2] === 'run' && p.ppid === 1;
const socketDirOf = (p: ProcessView): string | null => {
  const at = p.argv.indexOf('--bg-pty-host');
  const path = at >= 0 ? p.argv[at + 1] : undefined;
  return path?.replace(/\/(spare|pty)\/[^/]+$/, '') ?? null;
};

describe.skipIf(skip !== undefined)(
  `the real Claude Code ${CLAUDE_CODE_VERSION}: what an old service generation leaves`,
  () => {
    it("its service's directory replaced: the old service goes, a worker of it is left at PPID 1, an orphan that says why; the new generation is no leftover", async () => {
      const cwd = realpathSync(tempDirForTest('corral-bg-cwd-'));
      const { home } = makeClaudeHome();
      mkdirSync(join(home, 'tmp'), { recursive: true });
      prepareBgHome(home, cwd);
      const api = await startFakeMessagesApi({ command: 'true', description: 'Nothing' });
      const env = bgEnv(home, api.baseUrl);
      try {
        expect(
          (await claudeCommand(['--bg', '--dangerously-skip-permissions', 'first'], env, cwd)).code,
        ).toBe(0);
        const first = await waitFor(
          'the first service and a host of it',
          async () => {
            trackGroupsOfRun(home);
            const procs = (await psGroups()).flatMap((g) => g.processes);
            const service = procs.find(isService);
            const host = service && procs.find((p) => p.ppid === service.pid && socketDirOf(p));
            const workers = service ? procs.filter((p) => p.ppid === service.pid).map((p) => p.pid) : [];
            return service && host ? { service, workers, dir: socketDirOf(host)! } : undefined;
          },
          { timeoutMs: 60_000, intervalMs: 500 },
        );
        // The service's directory (its sockets and lock) replaced, as an update or a cleaner of /tmp does: the
        // service exits, the next `claude --bg` starts a new one in a new directory of the same name, and a
        // host the old one started stays behind at PPID 1 (claude-code#87891: workers never reaped).
        rmSync(first.dir, { recursive: true, force: true });
        expect(
          (await claudeCommand(['--bg', '--dangerously-skip-permissions', 'second'], env, cwd)).code,
        ).toBe(0);
        const seen = await waitFor(
          'a worker of the old service flagged beside the new service',
          async () => {
            trackGroupsOfRun(home);
            const procs = (await psGroups()).flatMap((g) => g.processes.map((p) => ({ p, g })));
            const newer = procs.find(({ p }) => isService(p) && p.pid !== first.service.pid);
            // A host the old service started (before the new service), now at PPID 1.
            const left = procs.find(
              ({ p }) =>
                newer !== undefined &&
                p.argv.includes('--bg-pty-host') &&
                p.ppid === 1 &&
                p.startKey < newer.p.startKey &&
                p.serviceLeftover,
            );
            return newer && left ? { newer, left, procs } : undefined;
          },
          { timeoutMs: 60_000, intervalMs: 250 },
        );
        const { newer, left, procs } = seen;
        expect(procs.some(({ p }) => p.pid === first.service.pid)).toBe(false);
        expect(left.p.serviceLeftover).toBe('a worker of a claude-code service that is gone');
        expect(left.p.argv).toContain('--bg-pty-host');
        expect(left.g.flags).toContain('orphan');
        expect(left.p.role).toBeNull();
        // The new generation: the agent's machinery under one service entry, none of it a leftover.
        for (const { p, g } of procs.filter(({ p }) => p.pid === newer.p.pid || p.ppid === newer.p.pid)) {
          expect(p.serviceLeftover).toBeUndefined();
          expect(g.flags).not.toContain('orphan');
        }
        expect(newer.p.role).toBe('agent-service');
        expect(newer.g.agent).toMatchObject({ pid: newer.p.pid, servicePid: newer.p.pid });
      } finally {
        await api.close();
        await removeProcessesOfRun(home);
      }
    }, 180_000);
  },
);
