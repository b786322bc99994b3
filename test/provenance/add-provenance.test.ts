import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ListeningPort } from '../../shared/model';
import { AgentMatcher } from '../../main/core/analysis/agent-matcher';
import { attribute } from '../../main/core/analysis/attribution';
import { buildGroups } from '../../main/core/analysis/grouping';
import { BUILTIN_SIGNATURES, PROVENANCE_ENV } from '../../main/core/analysis/signatures';
import { Provenance } from '../../main/core/provenance/add-provenance';
import { rec } from '../core/record-fixture';
import { removeDir } from '../support/spawned-groups';

const matcher = new AgentMatcher(BUILTIN_SIGNATURES, PROVENANCE_ENV);
const SESSION = { CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: 's-1' };

/** Records what it was asked, answers from a table: the reads themselves are tested on real processes. */
function countingSampler() {
  const asked = { cwd: [] as number[][], ports: [] as number[][] };
  return {
    asked,
    platform: 'linux' as const,
    readCwd: (pids: Iterable<number>) => {
      const list = [...pids];
      asked.cwd.push(list);
      return new Map(list.map((pid) => [pid, `/work/${pid}`]));
    },
    listeningPorts: (pids: Iterable<number>) => {
      const list = [...pids];
      asked.ports.push(list);
      return new Map(list.map((pid): [number, ListeningPort[]] => [pid, []]));
    },
  };
}

describe('Provenance.addTo', () => {
  const records = [
    rec({ pid: 100, name: 'claude', argv: ['claude'] }),
    rec({ pid: 201, pgid: 200, sid: 200, ppid: 1, markers: SESSION, argv: ['python3', '-m', 'http.server'] }),
    rec({ pid: 300, name: 'nginx', argv: ['nginx'] }),
  ];
  const attributions = attribute(records, matcher);
  const groups = () => buildGroups(records, attributions, () => ({ cpuPercent: null, flags: [] }));

  it("reads only agents' processes, and keeps each one's cwd and ports for the refresh interval", () => {
    let now = 0;
    const sampler = countingSampler();
    const provenance = new Provenance({ transcripts: false }, 10_000, () => now);
    const first = groups();
    provenance.addTo(first, { records, attributions, matcher, sampler });
    expect(sampler.asked.cwd).toEqual([[100, 201]]);
    expect(sampler.asked.ports).toEqual([[100, 201]]);
    const leftover = first.find((g) => g.pgid === 200)!;
    expect(leftover.processes[0]).toMatchObject({ cwd: '/work/201', ports: [], role: 'tool-call' });
    // Nothing ties session s-1 to the claude running (pid 100), and nothing says it is not that one's.
    expect(leftover.session).toEqual({ id: 's-1', source: 'env', project: '/work/201', agentAlive: null });
    expect(first.find((g) => g.pgid === 300)!.processes[0]!.cwd).toBeUndefined();

    now = 9_999;
    const again = groups();
    provenance.addTo(again, { records, attributions, matcher, sampler });
    expect(sampler.asked.cwd).toEqual([[100, 201], []]);
    expect(again.find((g) => g.pgid === 200)!.processes[0]!.cwd).toBe('/work/201');
    now = 10_000;
    provenance.addTo(groups(), { records, attributions, matcher, sampler });
    expect(sampler.asked.cwd.at(-1)).toEqual([100, 201]);
  });

  it('reads every process when asked for ports', () => {
    const sampler = countingSampler();
    const all = groups();
    new Provenance({ transcripts: false }).addTo(all, {
      records,
      attributions,
      matcher,
      sampler,
      portsOfAll: true,
    });
    expect(sampler.asked.ports).toEqual([[100, 201, 300]]);
    expect(all.find((g) => g.pgid === 300)!.ports).toEqual([]);
  });

  it("says a session's agent exited only when the agent it names is gone or no agent of its kind runs", () => {
    const leftover = rec({
      pid: 201,
      pgid: 200,
      sid: 200,
      ppid: 1,
      markers: SESSION,
      argv: ['sleep', '600'],
    });
    const sessionOf = (table: ReturnType<typeof rec>[]) => {
      const attributed = attribute(table, matcher);
      const built = buildGroups(table, attributed, () => ({ cpuPercent: null, flags: [] }));
      const sampler = countingSampler();
      new Provenance({ transcripts: false }).addTo(built, {
        records: table,
        attributions: attributed,
        matcher,
        sampler,
      });
      return built.find((g) => g.pgid === 200)!.session?.agentAlive;
    };
    // No claude runs: whatever ran the session has exited.
    expect(sessionOf([leftover])).toBe(false);
    // Another kind of agent running says nothing about this one.
    expect(sessionOf([rec({ pid: 100, name: 'codex', argv: ['codex'] }), leftover])).toBe(false);
    // A live tool call of the same session ties it to its claude (through the claude's own child).
    const claude = rec({ pid: 100, name: 'claude', argv: ['claude'] });
    const call = rec({
      pid: 301,
      ppid: 100,
      pgid: 301,
      sid: 301,
      markers: SESSION,
      argv: ['bash', '-c', 'sleep 5'],
    });
    expect(sessionOf([claude, call, leftover])).toBe(true);
    // Claude Code's CLAUDE_PID names the agent: gone, it exited, whatever else runs.
    const named = { ...leftover, markers: { ...SESSION, CLAUDE_PID: '999' } };
    expect(sessionOf([claude, named])).toBe(false);
  });
});

describe('Provenance.addTo, tool calls from the transcript', () => {
  const homes: string[] = [];
  afterEach(() => homes.splice(0).forEach(removeDir));

  /**
   * A HOME no passwd entry names, holding one session's transcript: a call still running (a server in
   * the foreground) and the loop's call, issued while it ran.
   */
  function homeWithTranscript(command: string, issuedAt: number): string {
    const home = mkdtempSync(join(tmpdir(), 'corral-agent-home-'));
    homes.push(home);
    const dir = join(home, '.claude', 'projects', '-work-202');
    mkdirSync(dir, { recursive: true });
    const use = (id: string, at: number, input: { command: string; description: string }) =>
      JSON.stringify({
        type: 'assistant',
        timestamp: new Date(at).toISOString(),
        sessionId: 's-1',
        message: { content: [{ type: 'tool_use', id, name: 'Bash', input }] },
      });
    const lines = [
      use('toolu_0', issuedAt - 1000, { command: 'npm run dev', description: 'Serve' }),
      use('toolu_1', issuedAt, { command, description: 'Spin' }),
    ];
    writeFileSync(join(dir, 's-1.jsonl'), lines.join('\n') + '\n');
    return home;
  }

  it("finds it under the tool call's own HOME, and names it for a loop that is the call shell's own fork", () => {
    const command = 'until false; do :; done &';
    const loop = rec({ pid: 202, pgid: 200, sid: 200, ppid: 1, name: 'bash' });
    const home = homeWithTranscript(command, loop.startedAt - 500);
    // The tool-call shell (pid 200) is gone; its fork runs the loop with the shell's command line.
    const forked = {
      ...loop,
      markers: { ...SESSION, HOME: home },
      argv: [
        '/bin/bash',
        '-c',
        `source ${home}/.claude/shell-snapshots/snapshot-bash-1-x.sh 2>/dev/null || true && eval '${command}' && pwd -P >| /tmp/claude-ab5d-cwd`,
      ],
    };
    const table = [forked];
    const attributions = attribute(table, matcher);
    const built = buildGroups(table, attributions, () => ({ cpuPercent: null, flags: [] }));
    const sampler = { ...countingSampler(), readCwd: () => new Map([[202, '/work/202']]) };
    new Provenance({ transcripts: true }).addTo(built, { records: table, attributions, matcher, sampler });
    expect(built[0]!.toolCall).toMatchObject({ id: 'toolu_1', command, description: 'Spin' });
  });
});
