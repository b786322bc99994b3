import { afterEach, describe, expect, it } from 'vitest';
import type { Incident } from '../../shared/model';
import { FakeAgent } from '../support/fake-agent';
import { startHarness, type Harness } from '../support/service-harness';
import { waitFor } from '../support/wait-for';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.stop();
});

// Low enough that the loop qualifies on a machine busy with other work.
const RUNAWAY = { cpuPercent: 15, windowSeconds: 1 };

async function leakedLoop(harness: Harness) {
  const agent = await FakeAgent.start();
  const call = await agent.toolCall(
    // The shell lives on half a second, so Corral sees the loop under it, then sees it reparented.
    'until false; do :; done >/dev/null 2>&1 & sleep 0.5; echo started',
  );
  await call.exited();
  const orphaned = await harness.next('orphaned', (e) => e.pgid === call.pid);
  const incident = await waitFor(
    'the loop flagged orphan, leaderless and runaway',
    async () =>
      (await harness.running.service.incidents()).find(
        (i) =>
          i.pgid === call.pid &&
          ['orphan', 'leaderless', 'runaway'].every((f) => i.flags.includes(f as never)),
      ),
    { timeoutMs: 30_000 },
  );
  return { call, orphaned, incident };
}

describe('one leak, one incident', () => {
  it('records an orphaned busy loop once, with its flags as phases and its CPU counted once', async () => {
    const harness = startHarness({ runaway: RUNAWAY });
    harnesses.push(harness);
    const { call, orphaned, incident } = await leakedLoop(harness);

    const ofGroup = (await harness.running.service.incidents()).filter((i) => i.pgid === call.pid);
    expect(ofGroup).toHaveLength(1);
    expect(harness.events.filter((e) => e.type === 'incident-opened' && e.pgid === call.pid)).toHaveLength(1);
    expect(incident.kind).toBe('orphan');
    // Opened when the reparenting happened, which Corral saw: not later, when the runaway window filled.
    expect(orphaned.detail?.reason).toMatch(/^parent \d+ exited$/);
    expect(incident.openedAtSource).toBe('observed');
    expect(incident.openedAt).toBeLessThanOrEqual(orphaned.at);
    expect(incident.phases.orphanedAt).toBe(incident.openedAt);
    expect(incident.phases.runaway).toHaveLength(1);
    expect(incident.phases.runaway[0]!.until).toBeNull();
    expect(incident.earliestStartAt).toBeLessThanOrEqual(incident.openedAt);

    process.kill(-call.pid, 'SIGKILL');
    const closed = await waitFor('the incident closed', async () =>
      (await harness.running.service.incidents()).find((i) => i.id === incident.id && i.end !== 'open'),
    );
    expect(closed.end).toBe('exited');
    expect(closed.closedAtSource).toBe('observed');
    expect(closed.phases.runaway[0]!.until).toBe(closed.closedAt);
    expect(closed.agent).toBe('claude-code');
    expect(closed.cpuSeconds).toBeGreaterThan(0);
  });

  it('keeps a restored runaway phase open after a restart until it sees it end', async () => {
    const first = startHarness({ runaway: RUNAWAY });
    harnesses.push(first);
    const { call, incident } = await leakedLoop(first);
    await first.stop();
    harnesses.splice(harnesses.indexOf(first), 1);

    // The restarted monitor's runaway window is far longer than this test: it never flags the loop
    // runaway itself, which the old tracker took as "cleared".
    const second = startHarness({ runaway: { cpuPercent: 15, windowSeconds: 3600 } }, first.dataDir);
    harnesses.push(second);
    await second.next('group-started', (e) => e.pgid === call.pid);
    let ticks = 0;
    const off = second.running.monitor.onTick(() => ticks++);
    await waitFor('five more polls', () => ticks >= 5);
    off();
    const after = (await second.running.service.incidents()).filter((i) => i.pgid === call.pid);
    expect(after).toHaveLength(1);
    expect(after[0]!.id).toBe(incident.id);
    expect(after[0]!.end).toBe('open');
    expect(after[0]!.phases.runaway.at(-1)?.until).toBeNull();
    expect(second.events.filter((e) => e.type === 'incident-closed' && e.pgid === call.pid)).toEqual([]);
    process.kill(-call.pid, 'SIGKILL');
    const closed = await second.next('incident-closed', (e) => e.detail?.incidentId === incident.id);
    expect(closed.detail?.end).toBe('exited');
    const stored: Incident | undefined = await waitFor('saved', async () =>
      (await second.running.service.incidents()).find((i) => i.id === incident.id && i.end === 'exited'),
    );
    expect(stored?.cpuSeconds).toBeGreaterThanOrEqual(incident.cpuSeconds);
  });
});
