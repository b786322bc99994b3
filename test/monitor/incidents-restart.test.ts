import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../support/fake-agent';
import { startHarness, type Harness } from '../support/service-harness';
import { waitFor } from '../support/wait-for';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.stop();
});

/** A monitor that has opened an orphan incident for a fake agent's tool call. */
async function orphanIncident() {
  const first = startHarness();
  harnesses.push(first);
  const agent = await FakeAgent.start();
  const call = await agent.toolCall('sleep 600 & echo done');
  await call.exited();
  const opened = await first.next(
    'incident-opened',
    (e) => e.pgid === call.pid && e.detail?.kind === 'orphan',
  );
  return { first, call, opened };
}

describe('incidents across a restart of the monitor', () => {
  it('keeps an open incident open across a restart, and closes it when its processes exit', async () => {
    const { first, call, opened } = await orphanIncident();
    const incidentId = String(opened.detail?.incidentId);
    await first.stop();
    harnesses.pop();

    const second = startHarness({}, first.dataDir);
    harnesses.push(second);
    const restored = (await second.running.service.incidents()).find((i) => i.id === incidentId);
    expect(restored?.end).toBe('open');
    expect(restored?.agent).toBe('claude-code');
    expect(restored?.processes.map((p) => p.command)).toEqual(['sleep 600']);
    // Still open after the restarted monitor has looked at the table.
    await second.next('group-started', (e) => e.pgid === call.pid);
    expect((await second.running.service.incidents()).find((i) => i.id === incidentId)?.end).toBe('open');

    process.kill(-call.pid, 'SIGKILL');
    const closed = await second.next('incident-closed', (e) => e.detail?.incidentId === incidentId);
    expect(closed.detail?.end).toBe('exited');
    const stored = await waitFor('closed incident saved', async () =>
      (await second.running.service.incidents()).find((i) => i.id === incidentId && i.end === 'exited'),
    );
    expect(stored.closedAt).toBeGreaterThanOrEqual(stored.openedAt);
  });

  it('closes a restored incident whose processes died while Corral was not running', async () => {
    const { first, call, opened } = await orphanIncident();
    await first.stop();
    harnesses.pop();
    process.kill(-call.pid, 'SIGKILL');
    await waitFor('group gone', async () => {
      const { groupMembers } = await import('../support/proc');
      return groupMembers(call.pid).length === 0;
    });

    const second = startHarness({}, first.dataDir);
    harnesses.push(second);
    const closed = await second.next(
      'incident-closed',
      (e) => e.detail?.incidentId === opened.detail?.incidentId,
    );
    expect(closed.detail?.end).toBe('exited');
  });
});
