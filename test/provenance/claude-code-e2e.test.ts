import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TeardownResult } from '../../shared/model';
import { claudeCodeSkipReason, runClaude, trackGroupsOfRun } from '../support/claude-code';
import { startFakeMessagesApi } from '../support/fake-messages-api';
import { groupMembers } from '../support/proc';
import { runCli } from '../support/run-cli';
import { removeDir } from '../support/spawned-groups';
import { accepts, CLI_ENV, freePort, gitWorkTree, psGroups, waitListening } from './live-support';

const skip = claudeCodeSkipReason();

describe.skipIf(skip !== undefined)('provenance with the real Claude Code CLI', () => {
  it("a leftover of a real Bash call: its session, project, cwd, port and the agent's description", async () => {
    const { root, sub } = gitWorkTree();
    let home: string | null = null;
    try {
      const port = await freePort();
      const command = `python3 -m http.server ${port} --bind 127.0.0.1 >/dev/null 2>&1 &`;
      const api = await startFakeMessagesApi({ command, description: 'Start the dev server' });
      const run = await runClaude({ prompt: 'Start the dev server', baseUrl: api.baseUrl, cwd: sub });
      await api.close();
      home = run.home;
      expect(run.code).toBe(0);
      const [pgid] = trackGroupsOfRun(run.home);
      await waitListening(port);
      const server = groupMembers(pgid!)[0]!;
      const sessionId = readFileSync(`/proc/${server.pid}/environ`, 'latin1')
        .split('\0')
        .find((e) => e.startsWith('CLAUDE_CODE_SESSION_ID='))!
        .slice('CLAUDE_CODE_SESSION_ID='.length);

      const [g] = await psGroups(['--port', String(port)]);
      expect(g).toBeDefined();
      expect(g!.agent?.name).toBe('claude-code');
      expect(g!.toolCall).toMatchObject({ id: api.toolUseId, command, description: 'Start the dev server' });
      expect(g!.session).toEqual({ id: sessionId, source: 'env', project: root, agentAlive: false });
      expect(g!.ports).toEqual([{ protocol: 'tcp', address: '127.0.0.1', port }]);
      expect(g!.processes.map((p) => [p.cwd, p.role])).toEqual([[sub, 'tool-call']]);

      // With transcripts turned off, the tool call is not read (and the rest still is).
      const configPath = join(run.home, 'corral.json');
      writeFileSync(configPath, JSON.stringify({ provenance: { transcripts: false } }));
      const off = await runCli(['ps', '--json', '--port', String(port)], {
        env: { CORRAL_CONFIG: configPath },
      });
      const [quiet] = (JSON.parse(off.stdout) as { groups: (typeof g)[] }).groups;
      expect(quiet!.toolCall).toBeNull();
      expect(quiet!.session?.id).toBe(sessionId);

      const kill = await runCli(['kill', '--session', sessionId, '--json', '--grace-ms', '2000'], {
        env: CLI_ENV,
      });
      const out = JSON.parse(kill.stdout) as { results: TeardownResult[] };
      expect(kill.code).toBe(0);
      expect(out.results.map((r) => r.pgid)).toEqual([pgid]);
      expect(groupMembers(pgid!)).toEqual([]);
      expect(await accepts(port)).toBe(false);
    } finally {
      removeDir(root);
      if (home) removeDir(home);
    }
  });
});
