import { describe, expect, it } from 'vitest';
import { LeftoverCpu } from '../../main/metrics/leftover-cpu';
import { makeIncident } from '../storage/make-incident';

const total = (burns: { seconds: number }[]): number => burns.reduce((s, b) => s + b.seconds, 0);

describe('LeftoverCpu: CPU of flagged groups, once per group', () => {
  it('counts one group once however many of its incidents (one per flag) measured the same burn', () => {
    const cpu = new LeftoverCpu([]);
    const orphan = makeIncident('a', { groupId: 'g1', kind: 'orphan' });
    const runaway = makeIncident('b', { groupId: 'g1', kind: 'runaway' });
    const leaderless = makeIncident('c', { groupId: 'g1', kind: 'leaderless' });
    expect(cpu.collect([orphan, runaway, leaderless])).toEqual([]);
    orphan.cpuSeconds = runaway.cpuSeconds = leaderless.cpuSeconds = 2;
    expect(cpu.collect([orphan, runaway, leaderless])).toEqual([{ agent: 'claude-code', seconds: 2 }]);
    // A flag that came later measured less of the burn: the group's figure is the largest delta.
    orphan.cpuSeconds = 5;
    runaway.cpuSeconds = 4.5;
    expect(cpu.collect([orphan, runaway, leaderless])).toEqual([{ agent: 'claude-code', seconds: 3 }]);
  });

  it('adds up separate groups, each under its own agent', () => {
    const cpu = new LeftoverCpu([]);
    const one = makeIncident('a', { groupId: 'g1', cpuSeconds: 1.5 });
    const two = makeIncident('b', { groupId: 'g2', agent: 'codex', cpuSeconds: 0.25 });
    const burns = cpu.collect([one, two]);
    expect(burns).toEqual([
      { agent: 'claude-code', seconds: 1.5 },
      { agent: 'codex', seconds: 0.25 },
    ]);
  });

  it('does not count again what incidents restored at start-up burned before', () => {
    const restored = makeIncident('old', { cpuSeconds: 3600 });
    const cpu = new LeftoverCpu([restored]);
    expect(cpu.collect([restored])).toEqual([]);
    restored.cpuSeconds = 3601;
    expect(total(cpu.collect([restored]))).toBeCloseTo(1);
  });

  it('takes the last figure of an incident that closed between two collects, and then forgets it', () => {
    const cpu = new LeftoverCpu([]);
    const incident = makeIncident('a', { groupId: 'g1', cpuSeconds: 1 });
    expect(total(cpu.collect([incident]))).toBe(1);
    cpu.closed('a', 'g1', 'claude-code', 4);
    expect(cpu.collect([])).toEqual([{ agent: 'claude-code', seconds: 3 }]);
    expect(cpu.collect([])).toEqual([]);
  });

  it('merges a closed incident with a still-open one of the same group instead of adding them', () => {
    const cpu = new LeftoverCpu([]);
    const runaway = makeIncident('r', { groupId: 'g1', kind: 'runaway' });
    const orphan = makeIncident('o', { groupId: 'g1', kind: 'orphan' });
    cpu.collect([runaway, orphan]);
    orphan.cpuSeconds = 2;
    cpu.closed('r', 'g1', 'claude-code', 2);
    expect(cpu.collect([orphan])).toEqual([{ agent: 'claude-code', seconds: 2 }]);
  });

  it('never counts a negative delta', () => {
    const cpu = new LeftoverCpu([]);
    const incident = makeIncident('a', { cpuSeconds: 2 });
    cpu.collect([incident]);
    incident.cpuSeconds = 1;
    expect(cpu.collect([incident])).toEqual([]);
  });
});
