import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProcessRecord } from '../../main/core/model/process-record';
import { rec } from '../core/record-fixture';
import { AGENT, monitorTable } from './table-fixture';

// An agent (200) ran a tool call: group and session 300 (its shell, the leader) with members 301.. .
// They end; then processes of nobody's agent are born under the same numbers: pids, PGID 300, SID 300.
// Whatever the table remembered of the old identities must attribute none of them, group none of them
// with the agent's (what a policy acts on), and name no agent in their events.

const TOOL = 300;
const OLD_START = 100;
const NEW_START = 10_000;

function oldGroup(size: number): ProcessRecord[] {
  const shell = rec({ pid: TOOL, ppid: 200, pgid: TOOL, sid: TOOL, name: 'bash', startKey: OLD_START });
  const members = Array.from({ length: size }, (_, i) =>
    rec({ pid: TOOL + 1 + i, ppid: TOOL, pgid: TOOL, sid: TOOL, startKey: OLD_START + 1 + i }),
  );
  return [shell, ...members];
}

interface StrangerPlan {
  pid: number;
  /** Index into the strangers (its own pid when itself), or -1 for the reused TOOL number. */
  pgid: 'tool' | 'own' | number;
  sid: 'tool' | 'own';
  parent: 'init' | number;
}

const strangerPlan = fc.record({
  pid: fc.oneof(fc.integer({ min: TOOL, max: TOOL + 5 }), fc.integer({ min: 400, max: 420 })),
  pgid: fc.oneof(fc.constant('tool' as const), fc.constant('own' as const), fc.nat({ max: 5 })),
  sid: fc.oneof(fc.constant('tool' as const), fc.constant('own' as const)),
  parent: fc.oneof(fc.constant('init' as const), fc.nat({ max: 5 })),
});

/** Records a kernel could show: unique pids, groups and sessions created by a process of that pid. */
function strangers(plans: readonly StrangerPlan[], holderSeen: boolean): ProcessRecord[] {
  const seen = new Set<number>();
  const unique = plans.filter((p) => !seen.has(p.pid) && seen.add(p.pid));
  const pids = unique.map((p) => p.pid);
  const usesTool = unique.some((p) => p.pgid === 'tool' || p.sid === 'tool');
  // The numbers of the old group come back only through a new process of that pid (its creator).
  if (usesTool && holderSeen && !pids.includes(TOOL)) pids.unshift(TOOL);
  return pids.map((pid, i) => {
    const plan = unique.find((p) => p.pid === pid) ?? { pgid: 'own', sid: 'own', parent: 'init' };
    const sid = plan.sid === 'tool' ? TOOL : pid;
    const other = typeof plan.pgid === 'number' ? pids[plan.pgid % pids.length]! : pid;
    const pgid = plan.pgid === 'tool' ? TOOL : plan.pgid === 'own' ? pid : other;
    const parent = typeof plan.parent === 'number' ? pids[plan.parent % pids.length]! : 1;
    return rec({
      pid,
      ppid: parent === pid ? 1 : parent,
      pgid,
      sid,
      startKey: NEW_START + i,
      startedAt: 1_800_000_000_000 + i,
      name: 'sleep',
      argv: ['sleep', '600'],
    });
  });
}

describe('numbers reused after an identity ended', () => {
  it('are never attributed, grouped with the agent or named in its events from memory', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 }),
        fc.boolean(),
        fc.constantFrom('seen-ended' as const, 'not-seen-ended' as const, 'full-list' as const),
        fc.array(strangerPlan, { minLength: 1, maxLength: 6 }),
        (size, agentEnds, howEnded, plans) => {
          const { state, table: t, groups } = monitorTable();
          const old = oldGroup(size);
          t.ingest([AGENT, ...old], new Set([200, ...old.map((r) => r.pid)]), null, 1_000, true);
          groups.update(1_000);
          // Precondition: the old group was the agent's, remembered by the table.
          for (const r of old) expect(state.procs.get(r.pid)?.attribution?.agent).toBe('claude-code');
          state.takeEvents();

          const oldPids = old.map((r) => r.pid);
          if (howEnded === 'seen-ended') {
            const ended = agentEnds ? [200, ...oldPids] : oldPids;
            t.ingest(agentEnds ? [] : [AGENT], null, new Set([200, ...ended]), 2_000, true);
            groups.update(2_000);
          }
          state.takeEvents();
          const born = strangers(plans, howEnded === 'not-seen-ended');
          const bornPids = new Set(born.map((r) => r.pid));
          const alive = howEnded === 'full-list' ? new Set([...(agentEnds ? [] : [200]), ...bornPids]) : null;
          const context = agentEnds || howEnded === 'seen-ended' ? [] : [AGENT];
          t.ingest([...context, ...born], alive, alive ? null : bornPids, 3_000, true);
          groups.update(3_000);
          t.ingest([...born], alive, alive ? null : bornPids, 4_000, true);
          groups.update(4_000);

          for (const r of born) {
            const p = state.procs.get(r.pid)!;
            expect(p.record.startKey).toBe(r.startKey);
            expect(p.attribution, `stranger ${r.pid} (pgid ${r.pgid}, sid ${r.sid})`).toBeNull();
            for (const g of state.groups.values())
              if (g.endedAt === null) expect(g.live.has(p.identity)).toBe(false);
          }
          // The old identities' own ends may be told now (their pids came back); nothing else may name
          // the agent for those pids.
          const ends = new Set(['process-exited', 'group-ended', 'incident-closed']);
          const named = state
            .takeEvents()
            .filter((e) => bornPids.has(e.pid) && e.agent !== null && !ends.has(e.type));
          expect(named).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('still attribute a process born into the group while a remembered member is in it', () => {
    const { state, table: t, groups } = monitorTable();
    const old = oldGroup(1);
    t.ingest([AGENT, ...old], new Set([200, TOOL, TOOL + 1]), null, 1_000, true);
    groups.update(1_000);
    // The shell exits; its child, still in group 300, forks one the table never saw the parent of.
    const late = rec({ pid: 500, ppid: 1, pgid: TOOL, sid: TOOL, startKey: NEW_START });
    t.ingest([late], null, new Set([TOOL, 500]), 2_000, true);
    expect(state.procs.get(500)?.attribution).toMatchObject({ agent: 'claude-code', source: 'group' });
  });
});
