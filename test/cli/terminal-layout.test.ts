import { describe, expect, it } from 'vitest';
import { describeEvent } from '../../main/cli/event-words';
import { renderGroups } from '../../main/cli/group-table';
import { detectTerminal } from '../../main/cli/terminal';
import { IncidentStore } from '../../main/core/storage/incident-store';
import type { GroupView, Incident, ProcessView } from '../../shared/model';
import { runCli } from '../support/run-cli';
import { makeGroup } from '../transport/fake-corral-service';
import { tempDirForTest } from '../support/spawned-groups';

const NOW = Date.parse('2026-01-01T00:10:00Z');
const plain = (width: number) => ({ colour: false, width, height: Infinity });

function proc(pid: number, command: string, flags: ProcessView['flags'] = []): ProcessView {
  return {
    pid,
    ppid: 1,
    pgid: 655,
    sid: 655,
    startKey: pid * 10,
    state: 'S',
    command,
    cpuPercent: 0,
    rssBytes: 2_000_000,
    startedAt: NOW - 300_000,
    flags,
  } as ProcessView;
}

/** The dev server a new user leaks: a session, a tool call with its description, a port. */
function devServer(): GroupView {
  return makeGroup({
    id: '655:655:1200',
    pgid: 655,
    flags: ['orphan', 'leaderless', 'held-pipe'],
    session: { id: 'b722d20e-5f5e-4c1a', source: 'env', project: '/home/me/shop', agentAlive: null },
    toolCall: {
      description: 'Start the dev server',
      command: 'npm run dev',
    } as GroupView['toolCall'],
    ports: [{ protocol: 'tcp', address: '127.0.0.1', port: 5173 }],
    processes: [
      proc(656, 'node /home/me/shop/node_modules/.bin/vite --port 5173', ['orphan', 'held-pipe']),
      proc(700, 'esbuild --service=0.25.0 --ping'),
    ],
    cpuPercent: 1.5,
    startedAt: NOW - 300_000,
  });
}

describe('ps and watch at 120 columns', () => {
  const lines = renderGroups([devServer()], NOW, plain(120));

  it('put the agent session on its own heading line, not in the command column', () => {
    expect(lines[1]).toBe('▸ claude-code (pid 100) · shop · session b722d20e · agent not known');
    expect(lines.slice(2).join('\n')).not.toContain('session');
  });

  it('give the leak’s description and command the width, in plain words', () => {
    expect(lines[2]).toContain('Start the dev server: npm run dev :5173');
    expect(lines[2]).toContain('orphan, holds pipe');
    expect(lines[2]).not.toMatch(/leaderless|held-pipe/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(120);
  });

  it('align process rows with their group’s columns', () => {
    const [header, , group, first, second] = lines as [string, string, string, string, string];
    const columnOf = (l: string, re: RegExp) => re.exec(l)!.index;
    // CPU% is right-aligned: the values end where the header ends.
    const cpuEnd = header.indexOf('CPU%') + 4;
    expect(group.slice(0, cpuEnd)).toMatch(/1\.5$/);
    expect(first.slice(0, cpuEnd)).toMatch(/0\.0$/);
    expect(second.slice(0, cpuEnd)).toMatch(/0\.0$/);
    const what = header.indexOf('WHAT');
    expect(columnOf(group, /Start the dev/)).toBe(what);
    expect(columnOf(first, /node /)).toBe(what);
    expect(columnOf(second, /esbuild/)).toBe(what);
    expect(first).toMatch(/^ {2}└ 656 /);
  });

  it('cut the flags before the command on a narrow terminal', () => {
    const narrow = renderGroups([devServer()], NOW, plain(80));
    for (const l of narrow) expect(l.length).toBeLessThanOrEqual(80);
    expect(narrow[2]).toContain('Start the dev server');
  });
});

describe('COLUMNS', () => {
  it('is honoured on a terminal, as on a pipe', () => {
    expect(detectTerminal({ isTTY: true, columns: 200, rows: 50 }, { COLUMNS: '90' }, false).width).toBe(90);
    expect(detectTerminal({ isTTY: true, columns: 200, rows: 50 }, {}, false).width).toBe(200);
    expect(detectTerminal({ isTTY: false }, { COLUMNS: '90' }, false).width).toBe(90);
    expect(detectTerminal({ isTTY: false }, {}, false).width).toBe(Infinity);
  });
});

describe('watch events in plain words', () => {
  it('says what an adoption and a held pipe mean; the terms stay in --json', () => {
    const base = {
      at: NOW,
      groupId: '655:655:1200',
      pid: 656,
      pgid: 655,
      agent: { name: 'claude-code', pid: 100 },
      command: 'sleep 600',
    };
    const adopted = describeEvent({
      ...base,
      type: 'orphaned',
      detail: { ppid: 1, originalPpid: 1, reason: 'found adopted' },
    });
    expect(adopted).toContain('found already adopted by PID 1');
    expect(adopted).not.toMatch(/originalPpid|reason=/);
    const pipe = describeEvent({
      ...base,
      type: 'held-pipe',
      detail: { description: 'socket:[1333105] fd 1 of pid 656', inode: 1333105, readerPid: 100 },
    });
    expect(pipe).toContain("holds the agent's output pipe: the agent may hang");
    expect(pipe).not.toContain('socket:[');
  });
});

describe('history', () => {
  it('shows runaway, CPU in the UI’s units and no line past COLUMNS', async () => {
    const dataDir = tempDirForTest('corral-history-');
    const store = IncidentStore.open(dataDir);
    const incident: Incident = {
      id: 'loop-1',
      kind: 'orphan',
      agent: 'claude-code',
      agentPid: 100,
      groupId: '657:657:9000',
      pgid: 657,
      sid: 657,
      processes: [{ pid: 658, startKey: 9001, command: `bash -c while :; do :; done ${'x'.repeat(200)}` }],
      openedAt: NOW - 600_000,
      closedAt: NOW,
      cpuSeconds: 132,
      peakRssBytes: 1_000_000,
      end: 'stopped-by-user',
      flags: ['orphan', 'leaderless', 'runaway'],
      phases: {
        orphanedAt: NOW - 600_000,
        leaderlessAt: NOW - 600_000,
        runaway: [{ from: NOW - 500_000, until: NOW }],
        heldPipe: [],
      },
      openedAtSource: 'observed',
      earliestStartAt: NOW - 600_000,
      closedAtSource: 'observed',
    };
    store.upsert([incident]);
    store.close();
    const r = await runCli(['history'], {
      env: { CORRAL_DATA_DIR: dataDir, CORRAL_CONFIG: '/nonexistent', COLUMNS: '100' },
    });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[1]).toContain('orphan, runaway');
    expect(lines[1]).toContain('2.2 min');
    expect(lines[1]).toContain('stopped by you');
    expect(lines[1]).not.toContain('132.0');
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(100);
    const json = await runCli(['history', '--json'], {
      env: { CORRAL_DATA_DIR: dataDir, CORRAL_CONFIG: '/nonexistent' },
    });
    expect(JSON.parse(json.stdout).incidents[0]).toMatchObject({
      kind: 'orphan',
      flags: ['orphan', 'leaderless', 'runaway'],
      cpuSeconds: 132,
    });
  });
});
