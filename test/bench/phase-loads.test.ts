import { loadavg } from 'node:os';
import { describe, expect, it } from 'vitest';
import { PhaseLoads } from '../../bench/lib/phase-loads';

describe('the load average beside each bench step', () => {
  it("records the machine's 1-minute load as each step starts and lists the top-level steps in order", () => {
    const loads = new PhaseLoads();
    loads.note(1.2, 'snapshots with 100 extra processes (104 in the table)');
    loads.note(
      70.4,
      'agent hook per tool call, with the service answering and without, 1000 extra processes',
    );
    loads.note(75, '  no viewer: 30 s warm-up, 120 s window');

    expect(loads.steps.map((s) => s.step.trim().split(' ')[0])).toEqual(['snapshots', 'agent', 'no']);
    for (const s of loads.steps) {
      expect(s.load1).toBeGreaterThanOrEqual(0);
      expect(s.load1).toBeLessThanOrEqual(loadavg()[0]! + 1000);
    }
    const line = loads.markdownLine(2);
    expect(line).toMatch(
      /^Load average \(1 min, 2 cores\) as each step started: \d+\.\d at 1 s \(snapshots with 100 extra processes\); \d+\.\d at 70 s \(agent hook per tool call\)\.$/,
    );
    expect(line).not.toContain('no viewer');
  });
});
