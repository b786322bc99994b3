import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { DEFAULT_QUIET_POLL_INTERVAL_MS } from '../../shared/settings-table';
import { Monitor } from '../../main/core/monitor/monitor';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { matcherFor } from '../../main/core/analysis/signatures';
import { claudeCodeSkipReason, makeClaudeHome, runClaude, trackGroupsOfRun } from '../support/claude-code';
import { startFakeMessagesApi } from '../support/fake-messages-api';
import { groupMembers } from '../support/proc';
import { removeDir } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { gitWorkTree } from '../provenance/live-support';
import { QUIET_COUNTER_WATCH_MS } from '../../main/core/monitor/schedule/watch-pace';

const skip = claudeCodeSkipReason();

describe.skipIf(skip !== undefined)('the monitor beside the real Claude Code CLI', () => {
  it('stops looking between polls while the agent waits on a tool call that carries its markers', async () => {
    const { root, sub } = gitWorkTree();
    const { home } = makeClaudeHome();
    const matcher = matcherFor(DEFAULT_SETTINGS);
    const sampler = new LinuxSampler({ markerKeys: matcher.markerKeys });
    const monitor = new Monitor({ sampler, matcher, settings: DEFAULT_SETTINGS });
    monitor.start();
    try {
      // The call leaves a process behind and then waits, quietly, long enough for the watch to slow down
      // (Claude Code 2.1.332 refuses a command that starts with a long sleep).
      const api = await startFakeMessagesApi({
        command: 'tail -f /dev/null & timeout 15 tail -f /dev/null; true',
        description: 'Wait',
      });
      const running = runClaude({ prompt: 'Wait', baseUrl: api.baseUrl, cwd: sub, home });
      const shell = await waitFor(
        'the tool-call shell, attributed to the agent',
        () =>
          [...monitor.trackedProcesses()].find(
            // The group leader running the call (Claude Code also runs a shell that writes the snapshot,
            // and the call's own forks carry its argv until they exec).
            (p) =>
              p.exitedAt === null &&
              p.record.pid === p.record.pgid &&
              p.record.argv.join(' ').includes('tail -f /dev/null &') &&
              p.attribution,
          ),
        { timeoutMs: 60_000 },
      );
      const agent = [...monitor.trackedProcesses()].find((p) => p.record.pid === shell.attribution!.agentPid);
      expect(agent?.attribution).toMatchObject({ agent: 'claude-code', isAgent: true });
      expect(matcher.markersOf(shell.record.markers)?.agent).toBe('claude-code');
      await waitFor(
        'looks at the pid counter only, the agent alive and quiet',
        () => monitor.watchPaceMs === QUIET_COUNTER_WATCH_MS,
        { timeoutMs: 14_000 },
      );
      await waitFor('polls at the quiet pace', () => monitor.pollPaceMs === DEFAULT_QUIET_POLL_INTERVAL_MS, {
        timeoutMs: 5000,
      });
      expect(agent!.exitedAt).toBeNull();
      expect(shell.exitedAt).toBeNull();
      const run = await running;
      await api.close();
      expect(run.code).toBe(0);
      const leftovers = trackGroupsOfRun(home);
      expect(leftovers.flatMap((pgid) => groupMembers(pgid)).length).toBeGreaterThan(0);
    } finally {
      monitor.stop();
      sampler.close();
      removeDir(root);
      removeDir(home);
    }
  });
});
