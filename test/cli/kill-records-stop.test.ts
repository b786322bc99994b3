import { describe, expect, it } from 'vitest';
import { FakeAgent } from '../support/fake-agent';
import { groupMembers } from '../support/proc';
import { runCli } from '../support/run-cli';
import { startHarness } from '../support/service-harness';
import { waitFor } from '../support/wait-for';

describe('a stop asked with corral kill', () => {
  it('is recorded stopped-by-user by the Corral that records incidents, as a stop from the UI is', async () => {
    const harness = startHarness();
    try {
      const agent = await FakeAgent.start();
      const call = await agent.toolCall('sleep 600 & sleep 0.5; echo done');
      await call.exited();
      const opened = await harness.next('incident-opened', (e) => e.pgid === call.pid);
      const r = await runCli(['kill', String(opened.groupId), '--grace-ms', '2000'], {
        env: { CORRAL_CONFIG: '/nonexistent', CORRAL_DATA_DIR: harness.dataDir },
      });
      expect(r.code).toBe(0);
      expect(groupMembers(call.pid)).toEqual([]);
      const closed = await harness.next(
        'incident-closed',
        (e) => e.detail?.incidentId === opened.detail?.incidentId,
      );
      expect(closed.detail?.end).toBe('stopped-by-user');
      const stored = await waitFor('the closed incident saved', async () =>
        (await harness.running.service.incidents()).find(
          (i) => i.id === opened.detail?.incidentId && i.end !== 'open',
        ),
      );
      expect(stored.end).toBe('stopped-by-user');
    } finally {
      await harness.stop();
    }
  });
});
