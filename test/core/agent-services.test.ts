import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isIdleAgentMachinery, markAgentServices } from '../../main/core/analysis/agent-services';
import type { GroupView, ProcessView } from '../../shared/model';

const FIXTURES = new URL('../fixtures/claude/2.1.332/bg/', import.meta.url);

/**
 * A process table Claude Code 2.1.332 showed (`ps -eo pid,ppid,pgid,sid,stat,etimes,args --forest`,
 * recorded by hand from the run docs/agents-observed.md describes) as group views the way Corral attributes
 * them before this pass: every `claude` process an agent of its own pid, the leaks their session's.
 */
function tableGroups(text: string, leakAgents: Record<number, number>): GroupView[] {
  const byPgid = new Map<number, GroupView>();
  for (const line of text.split('\n').slice(1)) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\d+)\s+[\s|\\_]*(.*)$/.exec(line);
    if (!m) continue;
    const [pid, ppid, pgid, sid, , elapsed] = m.slice(1, 7).map(Number) as number[];
    const argv = m[7]!.split(/\s+/);
    const claude = /(^|\/)claude(\.exe)?$/.test(argv[0]!);
    const agentPid = claude ? pid! : leakAgents[pid!];
    if (agentPid === undefined) continue;
    const proc: ProcessView = {
      pid: pid!,
      ppid: ppid!,
      pgid: pgid!,
      sid: sid!,
      uid: 0,
      state: m[5]!.slice(0, 1),
      startedAt: 1_000_000 - elapsed! * 1000,
      startKey: 1_000_000 - elapsed! * 100,
      cpuPercent: 0,
      rssBytes: 0,
      command: argv.join(' '),
      flags: !claude && ppid === 1 ? ['orphan'] : [],
      name: claude ? 'claude' : argv[0]!,
      argv,
      tty: null,
      cpuSeconds: 0,
      role: claude ? 'agent' : 'tool-call',
    };
    let group = byPgid.get(pgid!);
    if (!group) {
      group = {
        id: `${pgid}:${pid}:1`,
        pgid: pgid!,
        sid: sid!,
        leaderPid: pgid!,
        leaderAlive: true,
        agent: { name: 'claude-code', pid: agentPid },
        flags: [...proc.flags] as GroupView['flags'],
        processes: [],
        cpuPercent: 0,
        rssBytes: 0,
        startedAt: proc.startedAt,
        containsAgent: claude,
      };
      byPgid.set(pgid!, group);
    }
    group.processes.push(proc);
  }
  return [...byPgid.values()];
}

const table = (name: string): string => readFileSync(new URL(name, FIXTURES), 'utf8');
const groupOf = (groups: GroupView[], pid: number): GroupView =>
  groups.find((g) => g.processes.some((p) => p.pid === pid))!;
const procOf = (groups: GroupView[], pid: number): ProcessView =>
  groupOf(groups, pid).processes.find((p) => p.pid === pid)!;

describe('markAgentServices on what Claude Code 2.1.332 --bg showed', () => {
  it('two sessions: the service, its pty hosts and the unclaimed spare are one entry; sessions name it', () => {
    // 24 daemon; 32 and 110 hosts of spares (47 claimed: its own session; 118 waiting); 33 hosts session 45.
    const groups = markAgentServices(
      tableGroups(table('process-table-two-sessions.txt'), { 105: 45, 143: 47, 146: 47 }),
    );
    for (const pid of [24, 32, 33, 110, 118]) {
      expect(groupOf(groups, pid).agent).toEqual({ name: 'claude-code', pid: 24, servicePid: 24 });
      expect(procOf(groups, pid).role).toBe('agent-service');
      expect(groupOf(groups, pid).flags).toEqual([]);
    }
    expect(
      new Set(groups.filter((g) => g.agent?.pid === g.agent?.servicePid).map((g) => g.agent!.pid)),
    ).toEqual(new Set([24]));
    // The claimed spare and the --session-id session are agents of their own, under the service.
    for (const [leak, session] of [
      [105, 45],
      [143, 47],
    ] as const) {
      expect(groupOf(groups, session).agent).toEqual({ name: 'claude-code', pid: session, servicePid: 24 });
      expect(procOf(groups, session).role).toBe('agent');
      expect(groupOf(groups, leak).agent).toEqual({ name: 'claude-code', pid: session, servicePid: 24 });
      expect(groupOf(groups, leak).flags).toEqual(['orphan']);
    }
  });

  it("after the service's own exit: the spare's host it left at PPID 1 is a leftover, with the reason", () => {
    const groups = markAgentServices(tableGroups(table('process-table-after-service-exit.txt'), {}));
    const host = groupOf(groups, 110);
    expect(host.agent).toEqual({ name: 'claude-code', pid: null });
    expect(host.flags).toContain('orphan');
    expect(procOf(groups, 110)).toMatchObject({
      role: null,
      flags: ['orphan'],
      serviceLeftover: 'a worker of a claude-code service that is gone',
    });
  });

  it('an older service beside a newer one of the same socket directory is a leftover generation', () => {
    const two = table('process-table-two-sessions.txt');
    // The same service and a host started 100 s earlier, as a previous release left them.
    const old = [
      '      7       1       7       7 Ssl      121 /opt/claude/2.1.300/claude.exe daemon run --origin transient',
      '      8       7       8       8 SNsl     120  \\_ claude bg-pty-host --bg-pty-host /tmp/cc-daemon-0/1e281f94/spare/0ld.pty.sock 200 50 --',
      '      9       8       8       8 SNl      120      \\_ claude bg-spare --bg-spare /tmp/cc-daemon-0/1e281f94/spare/0ld.claim.sock',
    ].join('\n');
    const groups = markAgentServices(tableGroups(`${two}\n${old}`, {}));
    expect(procOf(groups, 7).serviceLeftover).toBe('an older claude-code service: a newer one (pid 24) runs');
    expect(procOf(groups, 8).serviceLeftover).toBe(
      'a worker of an older claude-code service: a newer one (pid 24) runs',
    );
    expect(groupOf(groups, 7).flags).toContain('orphan');
    expect(procOf(groups, 24).role).toBe('agent-service');
    // Another configuration's service (another socket directory) is no generation of this one.
    const other = old.replaceAll('1e281f94', 'feedbeef');
    const apart = markAgentServices(tableGroups(`${two}\n${other}`, {}));
    expect(procOf(apart, 7).serviceLeftover).toBeUndefined();
    expect(groupOf(apart, 7).agent).toEqual({ name: 'claude-code', pid: 7, servicePid: 7 });
  });

  it('a host still holding a session is no leftover when its service is gone', () => {
    const groups = markAgentServices(
      tableGroups(
        [
          '    PID    PPID    PGID     SID STAT ELAPSED COMMAND',
          '     33       1      33      33 SNsl      20 claude bg-pty-host --bg-pty-host /tmp/cc-daemon-0/1e281f94/pty/5a937045.sock 200 50 --',
          '     45      33      45      45 SNsl+     19  \\_ /x/claude.exe --session-id 5a937045 Serve',
        ].join('\n'),
        {},
      ),
    );
    expect(procOf(groups, 33).serviceLeftover).toBeUndefined();
    expect(groupOf(groups, 33).flags).toEqual([]);
  });

  it('leaves agents without a service as they were', () => {
    const plain = tableGroups(
      '    PID    PPID    PGID     SID STAT ELAPSED COMMAND\n     45       9      45      45 S   19 /x/claude.exe -p hi',
      {},
    );
    expect(markAgentServices(plain)).toEqual(plain);
  });
});

describe('a service’s idle machinery runs no session (it must not hold every ended session of its kind)', () => {
  it.each([
    [['claude.exe', 'daemon', 'run', '--origin', 'transient'], 10, 10, true],
    [['claude', 'bg-pty-host', '--bg-pty-host', '/d/spare/a.pty.sock'], 11, 11, true],
    [['claude', 'bg-spare', '--bg-spare', '/d/spare/a.claim.sock'], 12, 11, true],
    [['claude', 'bg-spare', '--bg-spare', '/d/spare/a.claim.sock'], 13, 13, false],
    [['claude', '-p', 'hello'], 14, 14, false],
  ])('%j (pid %i, sid %i) → %s', (argv, pid, sid, idle) => {
    expect(isIdleAgentMachinery('claude-code', argv, pid, sid)).toBe(idle);
  });
});
