import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_MARKERS, FakeAgent } from '../support/fake-agent';
import { startHarness, type Harness } from '../support/service-harness';
import { spawnGroup } from '../support/spawned-groups';
import { describeEvents } from '../support/wait-for';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.stop();
  harness = null;
});

const CALLS = 12;

/**
 * Issue 51 (Low, seen three times): a tool call's shell read between the agent's fork and its exec bears
 * the agent's name, argv and environment, and was taken for an agent: the group's first `group-started`
 * named the tool call's own pid as its agent, corrected once the exec was seen. A process forked from an
 * agent and not yet exec'd is that agent's child, never an agent of its own: the first event is right.
 */
describe('the first group-started of a tool call', () => {
  it('names the agent that started it, even when the shell is read before its exec (busy machine)', async () => {
    // One busy loop a core, each in a group of its own (removed by that PGID after the test): the
    // agent's children then wait for a CPU between fork and exec, where the monitor reads them.
    for (let i = 0; i < availableParallelism(); i++) spawnGroup('while :; do :; done');
    harness = startHarness();
    // Newer Claude Code marks its tool calls with its own pid (CLAUDE_PID): a leftover whose shell was gone
    // before any look names its agent too.
    const agent = await FakeAgent.start({ markers: { ...CLAUDE_MARKERS, CLAUDE_PID: '$PID' } });
    await harness.next('group-started', (e) => e.pgid === agent.pid, 30_000);
    const calls: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const call = await agent.toolCall('sleep 600 & echo done');
      await call.exited();
      await harness.next('group-started', (e) => e.pgid === call.pid, 30_000);
      calls.push(call.pid);
    }
    const seen = describeEvents(harness.events, 200);
    const first = calls.map((pgid) =>
      harness!.events.find((e) => e.type === 'group-started' && e.pgid === pgid)!,
    );
    const right = { name: 'claude-code', pid: agent.pid };
    expect(
      first.map((e) => [e.pgid, e.agent]),
      seen,
    ).toEqual(calls.map((pgid) => [pgid, right]));
    // Nor any later one: no group of a tool call ever names the call's own shell as its agent.
    const started = harness.events.filter((e) => e.type === 'group-started' && e.pgid !== agent.pid);
    expect(
      started.filter((e) => e.agent?.pid !== agent.pid).map((e) => [e.pgid, e.agent]),
      seen,
    ).toEqual([]);
  });
});
