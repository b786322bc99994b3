import { afterEach, describe, expect, it } from 'vitest';
import { recordSessionEnded } from '../../main/core/storage/ended-sessions';
import { CLAUDE_MARKERS, FakeAgent } from '../support/fake-agent';
import { startHarness, type Harness } from '../support/service-harness';
import { waitFor } from '../support/wait-for';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.stop();
  harness = null;
});

const SESSION = CLAUDE_MARKERS.CLAUDE_CODE_SESSION_ID;

describe('what the running service adds to its groups and events', () => {
  it('names the session of a leftover in its events and in the view', async () => {
    harness = startHarness();
    const agent = await FakeAgent.start();
    const call = await agent.toolCall('sleep 600 & echo done');
    await call.exited();
    const orphaned = await harness.next('orphaned', (e) => e.pgid === call.pid);
    expect(orphaned.session?.id).toBe(SESSION);
    expect(orphaned.session?.source).toBe('env');
    const group = harness.running.service.snapshot().groups.find((g) => g.pgid === call.pid);
    expect(group?.session?.id).toBe(SESSION);
    expect(group?.processes[0]?.cwd).toBeTruthy();
  });

  it("gives the desktop's no-window snapshot the session its events already found, without reading again", async () => {
    harness = startHarness();
    const agent = await FakeAgent.start();
    const call = await agent.toolCall('sleep 600 & echo done');
    await call.exited();
    await harness.next('orphaned', (e) => e.pgid === call.pid && e.session?.id === SESSION);
    const group = harness.running.agentsSnapshot().groups.find((g) => g.pgid === call.pid);
    expect(group?.session?.id).toBe(SESSION);
    expect(group?.session?.project).toBeTruthy();
  });

  it('flags the leftovers of a session the agent hooks reported ended, once its agent is gone', async () => {
    harness = startHarness();
    const agent = await FakeAgent.start();
    const call = await agent.toolCall('sleep 600 & echo done');
    await call.exited();
    const service = harness.running.service;
    await waitFor('the leftover seen', () => service.snapshot().groups.find((g) => g.pgid === call.pid));
    expect(service.snapshot().groups.find((g) => g.pgid === call.pid)?.flags).not.toContain('session-ended');
    // The session ends as Claude Code's does: the SessionEnd hook, then the agent exits. (An end whose
    // agent still runs is held: test/policies/forged-session-end.test.ts.)
    recordSessionEnded(harness.dataDir, { agent: 'claude-code', sessionId: SESSION, endedAt: Date.now() });
    process.kill(-agent.pid, 'SIGKILL');
    const group = await waitFor('the leftover flagged session-ended', () =>
      service.snapshot().groups.find((g) => g.pgid === call.pid && g.flags.includes('session-ended')),
    );
    expect(group.agent?.name).toBe('claude-code');
  });
});
