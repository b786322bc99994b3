import { describe, expect, it } from 'vitest';
import type { GroupView, Incident } from '../../shared/model';
import { notePortFacts } from '../../main/core/monitor/incidents/incident-port-glue';
import { readIncidentRow } from '../../main/core/storage/incident-row';
import { IncidentTable } from '../../main/core/storage/incident-table';
import { portDrift, portHistory } from '../../shared/words/port-history';
import { forEachSqliteDriver } from './sqlite-drivers';

const HOUR = 3_600_000;
const NOW = 1_800_000_000_000;

function incident(over: Partial<Incident>): Incident {
  return {
    id: `i-${over.pgid ?? 1}`,
    kind: 'orphan',
    agent: 'claude-code',
    agentPid: 10,
    groupId: `${over.pgid ?? 1}:${over.pgid ?? 1}:100`,
    pgid: 1,
    sid: 1,
    processes: [
      {
        pid: over.pgid ?? 1,
        startKey: 100,
        command:
          "/bin/bash -c source /home/u/.claude/shell-snapshots/snapshot-bash-1.sh && eval 'npm run dev' \\< /dev/null",
      },
    ],
    openedAt: NOW - HOUR,
    closedAt: null,
    cpuSeconds: 0,
    peakRssBytes: 0,
    end: 'open',
    flags: ['orphan'],
    phases: { orphanedAt: NOW - HOUR, leaderlessAt: null, runaway: [], heldPipe: [] },
    openedAtSource: 'observed',
    earliestStartAt: null,
    closedAtSource: null,
    ...over,
  };
}

const view = (ports: number[], session: GroupView['session'] = null) =>
  ({
    ports: ports.map((port) => ({ protocol: 'tcp' as const, address: '127.0.0.1', port })),
    processes: [],
    session,
  }) as Pick<GroupView, 'ports' | 'processes' | 'session'>;

forEachSqliteDriver('incident-port-facts.test.ts', () => {
  describe("incidents' port facts", () => {
    it('notes ports (only ever added, lowest first) and the session once known, saying when it changed', () => {
      const i = incident({ pgid: 7 });
      expect(notePortFacts(i, view([5173]))).toBe(true);
      expect(notePortFacts(i, view([5173]))).toBe(false);
      expect(notePortFacts(i, view([3000]))).toBe(true);
      expect(i.ports).toEqual([3000, 5173]);
      const session = { id: 'abc12345-0000', source: 'env' as const, project: null, agentAlive: true };
      expect(notePortFacts(i, view([], session))).toBe(true);
      expect(notePortFacts(i, view([], session))).toBe(false);
      expect(notePortFacts(i, view([], { ...session, project: '/work/shop' }))).toBe(true);
      expect(i.session).toEqual({ id: 'abc12345-0000', project: '/work/shop' });
      expect(i.ports).toEqual([3000, 5173]);
    });

    it('survive the store; a malformed one is dropped without losing the incident', () => {
      const table = IncidentTable.inMemory();
      const stored = incident({ pgid: 8, ports: [3000], session: { id: 's-1', project: '/p' } });
      table.write([stored], 100);
      expect(table.all()[0]).toEqual(stored);
      const bad = readIncidentRow(JSON.stringify({ ...stored, ports: ['x'], session: { id: 3 } }));
      expect('incident' in bad && bad.incident.ports).toBeUndefined();
      expect('incident' in bad && bad.incident.session).toBeUndefined();
      table.close();
    });

    it('give a port its holders and the drift above it in the last day, oldest first', () => {
      const incidents = [
        incident({
          pgid: 1,
          ports: [3000],
          openedAt: NOW - 3 * HOUR,
          closedAt: NOW - 2 * HOUR,
          end: 'stopped-by-user',
        }),
        incident({
          pgid: 2,
          ports: [3001],
          openedAt: NOW - 2 * HOUR,
          closedAt: NOW - HOUR,
          end: 'exited',
          session: { id: 's2', project: '/w' },
        }),
        incident({ pgid: 3, ports: [3002, 9229], openedAt: NOW - HOUR }),
        // Closed more than a day ago, below the port, or far above it: not part of this history.
        incident({
          pgid: 4,
          ports: [3000],
          openedAt: NOW - 30 * HOUR,
          closedAt: NOW - 25 * HOUR,
          end: 'exited',
        }),
        incident({ pgid: 5, ports: [2999] }),
        incident({ pgid: 6, ports: [3010] }),
        incident({ pgid: 9 }),
      ];
      const h = portHistory(incidents, 3000, NOW);
      expect(h.map((x) => [x.port, x.pgid, x.until, x.end])).toEqual([
        [3000, 1, NOW - 2 * HOUR, 'stopped-by-user'],
        [3001, 2, NOW - HOUR, 'exited'],
        [3002, 3, null, 'open'],
      ]);
      expect(h[0]!.command).toBe('npm run dev');
      expect(h[1]).toMatchObject({ sessionId: 's2', project: '/w' });
      expect(portDrift(h)).toEqual([3000, 3001, 3002]);
      expect(portHistory(incidents, 3002, NOW).map((x) => [x.pgid, x.port])).toEqual([
        [3, 3002],
        [6, 3010],
      ]);
    });
  });
});
