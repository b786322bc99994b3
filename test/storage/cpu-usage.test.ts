import { describe, expect, it } from 'vitest';
import { cpuUsage } from '../../main/core/storage/cpu-usage';
import { makeIncident } from './make-incident';

const HOUR = 3_600_000;
const day = (d: number, h = 0) => Date.UTC(2026, 8, d, h);

describe('cpuUsage', () => {
  it('sums per agent, keeping unattributed incidents apart', () => {
    const usage = cpuUsage(
      [
        makeIncident('a', {
          agent: 'codex',
          openedAt: day(1, 1),
          closedAt: day(1, 2),
          cpuSeconds: 30,
          end: 'exited',
        }),
        makeIncident('b', {
          agent: 'codex',
          openedAt: day(1, 3),
          closedAt: day(1, 4),
          cpuSeconds: 20,
          end: 'exited',
        }),
        makeIncident('c', {
          agent: null,
          openedAt: day(1, 3),
          closedAt: day(1, 4),
          cpuSeconds: 5,
          end: 'exited',
        }),
        makeIncident('d', { agent: 'claude-code', openedAt: day(1, 5), closedAt: day(1, 6), cpuSeconds: 40 }),
      ],
      { now: day(2), timeZone: 'utc' },
    );
    expect(usage.byAgent).toEqual([
      { agent: 'codex', cpuSeconds: 50 },
      { agent: 'claude-code', cpuSeconds: 40 },
      { agent: null, cpuSeconds: 5 },
    ]);
    expect(usage.byAgentAndDay).toEqual([
      { agent: null, day: '2026-09-01', cpuSeconds: 5 },
      { agent: 'claude-code', day: '2026-09-01', cpuSeconds: 40 },
      { agent: 'codex', day: '2026-09-01', cpuSeconds: 50 },
    ]);
  });

  it('spreads an incident over the days it spans, in proportion to time', () => {
    // 18:00 on the 1st to 06:00 on the 3rd: 6 h, 24 h, 6 h.
    const usage = cpuUsage(
      [
        makeIncident('a', {
          openedAt: day(1, 18),
          closedAt: day(3, 6),
          cpuSeconds: 3600,
          end: 'stopped-by-user',
        }),
      ],
      { now: day(9), timeZone: 'utc' },
    );
    expect(usage.byAgentAndDay.map((r) => [r.day, r.cpuSeconds])).toEqual([
      ['2026-09-01', 600],
      ['2026-09-02', 2400],
      ['2026-09-03', 600],
    ]);
  });

  it('runs a still-open incident up to now', () => {
    const usage = cpuUsage([makeIncident('a', { openedAt: day(1, 12), cpuSeconds: 100 })], {
      now: day(2, 12),
      timeZone: 'utc',
    });
    expect(usage.byAgentAndDay.map((r) => [r.day, r.cpuSeconds])).toEqual([
      ['2026-09-01', 50],
      ['2026-09-02', 50],
    ]);
  });

  it('counts overlapping incidents of one group once (an orphan that is also a runaway)', () => {
    const usage = cpuUsage(
      [
        makeIncident('o', {
          kind: 'orphan',
          groupId: 'g',
          openedAt: day(1, 0),
          closedAt: day(1, 10),
          cpuSeconds: 100,
        }),
        makeIncident('r', {
          kind: 'runaway',
          groupId: 'g',
          openedAt: day(1, 2),
          closedAt: day(1, 5),
          cpuSeconds: 90,
        }),
        makeIncident('later', { groupId: 'g', openedAt: day(1, 11), closedAt: day(1, 12), cpuSeconds: 7 }),
      ],
      { now: day(2), timeZone: 'utc' },
    );
    expect(usage.byAgent).toEqual([{ agent: 'claude-code', cpuSeconds: 107 }]);
  });

  it('gives a zero-length incident to its start day', () => {
    const at = day(4, 23) + HOUR / 2;
    const usage = cpuUsage(
      [makeIncident('a', { openedAt: at, closedAt: at, cpuSeconds: 3, end: 'exited' })],
      {
        now: day(9),
        timeZone: 'utc',
      },
    );
    expect(usage.byAgentAndDay).toEqual([{ agent: 'claude-code', day: '2026-09-04', cpuSeconds: 3 }]);
  });

  it('uses local calendar days by default', () => {
    const at = new Date(2026, 8, 13, 23, 30).getTime();
    const usage = cpuUsage(
      [makeIncident('a', { openedAt: at, closedAt: at + HOUR, cpuSeconds: 60, end: 'exited' })],
      {
        now: at + 2 * HOUR,
      },
    );
    expect(usage.byAgentAndDay.map((r) => [r.day, r.cpuSeconds])).toEqual([
      ['2026-09-13', 30],
      ['2026-09-14', 30],
    ]);
  });
});
