import { describe, expect, it } from 'vitest';
import { agentTotals, compareGroups, groupSeverity } from '../../renderer/src/overview/triage';
import { allClearMessage } from '../../renderer/src/overview/GroupTable';
import { flagHelp } from '../../renderer/src/shared-ui/flag-help';
import { groupCommand, groupTree } from '../../renderer/src/store/selectors';
import { formatGrace, targetsSentence, describeSignal } from '../../shared/words/stop-wording';
import { describeOutcome } from '../../renderer/src/stop/outcome-rows';
import { T0, makeGroup, makeProcess } from './support/fixtures';

const claude = { name: 'claude-code', pid: 42 };
const idle = makeGroup({ pgid: 10, agent: claude, processes: [makeProcess({ pid: 10, cpuPercent: 0 })] });
const busy = makeGroup({ pgid: 20, agent: claude, processes: [makeProcess({ pid: 20, cpuPercent: 40 })] });
const runaway = makeGroup({
  pgid: 30,
  agent: claude,
  flags: ['orphan', 'runaway'],
  processes: [makeProcess({ pid: 30, cpuPercent: 99, flags: ['orphan', 'runaway'], cpuSeconds: 120 })],
});
const orphan = makeGroup({
  pgid: 40,
  agent: claude,
  flags: ['orphan'],
  processes: [makeProcess({ pid: 40, cpuPercent: 0.5, flags: ['orphan'], cpuSeconds: 3 })],
});

describe('triage order', () => {
  it('puts flagged groups first, worst flag first, then the busiest', () => {
    expect([idle, orphan, busy, runaway].sort(compareGroups).map((g) => g.pgid)).toEqual([30, 40, 20, 10]);
  });

  it('keeps groups in place while their CPU readings wander within a band, oldest first', () => {
    const older = makeGroup({
      pgid: 70,
      startedAt: T0,
      processes: [makeProcess({ pid: 70, cpuPercent: 0.6 })],
    });
    const newer = makeGroup({
      pgid: 80,
      startedAt: T0 + 1_000,
      processes: [makeProcess({ pid: 80, cpuPercent: 2.2 })],
    });
    const next = (g: typeof older, cpuPercent: number) => ({ ...g, cpuPercent });
    expect([newer, older].sort(compareGroups).map((g) => g.pgid)).toEqual([70, 80]);
    expect([next(newer, 0.4), next(older, 3.9)].sort(compareGroups).map((g) => g.pgid)).toEqual([70, 80]);
    // Crossing into a busier band moves a group up.
    expect([next(older, 1), next(newer, 12)].sort(compareGroups).map((g) => g.pgid)).toEqual([80, 70]);
  });

  it('orders agents by their most urgent group, unattributed last', () => {
    const calm = makeGroup({ pgid: 50, agent: { name: 'aider', pid: 7 } });
    const plain = makeGroup({ pgid: 60, flags: ['runaway'] });
    const tree = groupTree([calm, plain, idle, runaway]);
    expect(tree.map((a) => a.name)).toEqual(['claude-code', 'aider', null]);
    expect(tree[0]!.sessions.flatMap((s) => s.groups).map((g) => g.pgid)[0]).toBe(30);
  });

  it('colours by the worst flag, including flags other work adds', () => {
    expect(groupSeverity(runaway)).toBe('critical');
    expect(groupSeverity(orphan)).toBe('warning');
    expect(groupSeverity({ flags: ['leaderless'] })).toBe('notice');
    expect(groupSeverity({ flags: ['memory-hog'] as never[] })).toBe('critical');
    expect(groupSeverity(idle)).toBe('none');
  });

  it('totals an agent now, and the CPU its leftovers burned', () => {
    expect(agentTotals([idle, busy, runaway, orphan])).toEqual({
      processes: 4,
      cpuPercent: 139.5,
      rssBytes: 16 * 1024 * 1024,
      leftoverCpuSeconds: 123,
      orphans: 2,
    });
  });

  it('says all clear with the number of agents running', () => {
    expect(allClearMessage([idle, busy, makeGroup({ pgid: 70, agent: { name: 'codex', pid: 9 } })])).toBe(
      'All clear — 2 agents running, nothing left behind.',
    );
    expect(allClearMessage([])).toBe('All clear — no agents running, nothing left behind.');
  });
});

describe('what a row says', () => {
  it("shows the command inside an agent's wrapper shell", () => {
    const wrapped = makeGroup({
      pgid: 80,
      processes: [
        makeProcess({
          pid: 80,
          command:
            "/bin/bash -c source /home/u/.claude/shell-snapshots/snapshot-bash-1.sh && eval 'npm run dev' \\< /dev/null && pwd -P >| /tmp/claude-1-cwd",
        }),
      ],
    });
    expect(groupCommand(wrapped)).toBe('npm run dev');
  });

  it('explains each flag in a sentence; held-pipe says whose pipe', () => {
    expect(flagHelp('runaway')).toMatch(/^Runaway: .+; stop it/);
    const holder = makeGroup({
      pgid: 90,
      processes: [
        makeProcess({ pid: 91, heldPipe: 'pipe:[123] fd 1 of pid 91 (sleep 5) → read by pid 600 (claude)' }),
      ],
    });
    expect(flagHelp('held-pipe', holder)).toContain('fd 1 of pid 91 (sleep 5) → read by pid 600 (claude)');
  });
});

describe('stop wording', () => {
  it('counts grammatically and states the grace period', () => {
    expect(targetsSentence(1, 3000)).toBe(
      'This process will get SIGTERM, then SIGKILL after 3 s if still running:',
    );
    expect(targetsSentence(3, 1500)).toBe(
      'These 3 processes will get SIGTERM, then SIGKILL after 1.5 s if still running:',
    );
    expect(targetsSentence(2, null)).toContain('after the grace period');
    expect(formatGrace(250)).toBe('250 ms');
  });

  it('says outcomes and signals in plain words', () => {
    expect(
      describeOutcome({ pid: 1, startKey: 1, command: 'x', outcome: 'exited-after-term', goneAfterMs: 2 }),
    ).toBe('ended by SIGTERM after 2 ms');
    expect(describeSignal({ signal: 'SIGCONT', target: '-144', at: T0, result: 'ESRCH' })).toBe(
      'SIGCONT to group 144: already gone, nothing to signal',
    );
    expect(describeSignal({ signal: 'SIGTERM', target: '55@9', at: T0, result: 'sent' })).toBe(
      'SIGTERM to pid 55: delivered',
    );
  });
});
