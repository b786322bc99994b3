import { afterEach, expect, it } from 'vitest';
import { FakeAgent } from '../support/fake-agent';
import { groupMembers } from '../support/proc';
import { startHarness, type Harness } from '../support/service-harness';
import { waitFor } from '../support/wait-for';

// Orphans are found between polls (the exit watch wakes a look), and views show the flag at once; the
// incident must open then too. It opened only at the next poll, so a leftover stopped within a poll of
// being flagged (a user quick on the Stop button, the port-history UI test under load) left no history.
const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.stop();
});

it('opens the incident of a group flagged between two polls, though it ends before the next', async () => {
  // No poll after the first one within the test: only the looks between polls see the leak.
  const harness = startHarness({ pollIntervalMs: 600_000 });
  harnesses.push(harness);
  const agent = await FakeAgent.start();
  const call = await agent.toolCall('sleep 600 & sleep 0.5; echo started');
  await call.exited();
  await harness.next('orphaned', (e) => e.pgid === call.pid);
  process.kill(-call.pid, 'SIGKILL');
  await waitFor(`group ${call.pid} gone`, () => groupMembers(call.pid).length === 0);
  await harness.next('group-ended', (e) => e.pgid === call.pid);

  const incidents = (await harness.running.service.incidents()).filter((i) => i.pgid === call.pid);
  expect(incidents).toHaveLength(1);
  expect(incidents[0]!.flags).toContain('orphan');
  expect(incidents[0]!.end).toBe('exited');
});
