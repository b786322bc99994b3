import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { GroupView, PolicyRule } from '../../shared/model';
import { recordSessionEnded } from '../../main/core/storage/ended-sessions';
import { CLAUDE_MARKERS, FakeAgent } from '../support/fake-agent';
import { isAlive } from '../support/proc';
import { startHarness, type Harness } from '../support/service-harness';
import { cleanEnv, spawnGroup, tempDirForTest } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

// A SessionEnd is a message: anyone who read the hook token and a session id (Claude Code's transcript
// names give those away) could send one. It is believed only once the session's agent is gone.

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.stop();
  harness = null;
});

const LIVE_SESSION = CLAUDE_MARKERS.CLAUDE_CODE_SESSION_ID;

/** The documented example policy (docs/configuration.md): stop what an ended session left. */
const STOP_ENDED: PolicyRule = {
  name: 'ended-session-servers',
  match: { sessionEnded: true },
  action: 'stop',
  graceMs: 300,
};

/**
 * A leftover of another Claude Code session that no running agent is tied to: it is flagged (and
 * stopped) only through the recorded end, so seeing it flagged proves the end was read.
 */
async function unclaimedLeftover(session: string): Promise<{ pgid: number; pid: number }> {
  const group = spawnGroup('sleep 600 & echo $! > "$DIR/pid"', {
    env: cleanEnv({ CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: session }),
  });
  const pid = Number(await group.ready('pid'));
  await waitFor(`tool shell ${group.pid} to exit`, () => !isAlive(group.pid));
  return { pgid: group.pgid, pid };
}

/**
 * A live fake Claude Code whose tool call left a server behind (reparented, in its own group). It keeps
 * its session file while it runs, as Claude Code does: what ties the running agent to its session.
 */
async function liveSessionLeftover(): Promise<{ agent: FakeAgent; pgid: number }> {
  const config = tempDirForTest('corral-claude-config-');
  const agent = await FakeAgent.start({ env: { CLAUDE_CONFIG_DIR: config }, sessionFile: true });
  const call = await agent.toolCall('sleep 600 & echo started');
  await call.exited();
  return { agent, pgid: call.pid };
}

function groupOf(h: Harness, pgid: number): GroupView | undefined {
  return h.running.service.snapshot().groups.find((g) => g.pgid === pgid);
}

/**
 * Once the service named the live session's leftover with its live agent: an end recorded for that
 * live session (the forged one), then one for a control leftover's session. Once the control is seen
 * flagged (or stopped), the forged end was read too.
 */
async function forgedEndBesideControl(h: Harness, livePgid: number): Promise<{ pgid: number; pid: number }> {
  await waitFor('the live session’s leftover named with its live agent', () =>
    groupOf(h, livePgid)?.session?.agentAlive === true ? true : undefined,
  );
  const controlSession = randomUUID();
  const control = await unclaimedLeftover(controlSession);
  await waitFor('the control leftover seen', () => groupOf(h, control.pgid));
  recordSessionEnded(h.dataDir, { agent: 'claude-code', sessionId: LIVE_SESSION, endedAt: Date.now() });
  recordSessionEnded(h.dataDir, { agent: 'claude-code', sessionId: controlSession, endedAt: Date.now() });
  return control;
}

describe('a SessionEnd is held while the session’s agent runs', () => {
  it('a leftover of a live session is not flagged session-ended; once its agent exits it is', async () => {
    // The agent first: its session file is there when the service first reads it.
    const live = await liveSessionLeftover();
    harness = startHarness();
    const h = harness;
    const control = await forgedEndBesideControl(h, live.pgid);
    await waitFor('the control leftover flagged session-ended', () =>
      groupOf(h, control.pgid)?.flags.includes('session-ended') ? true : undefined,
    );
    expect(groupOf(h, live.pgid)?.flags).not.toContain('session-ended');

    // The agent really goes: the end recorded for its session now counts.
    process.kill(-live.agent.pid, 'SIGKILL');
    await waitFor('the agent gone', () => !isAlive(live.agent.pid));
    const flagged = await waitFor('the leftover flagged session-ended once its agent is gone', () =>
      groupOf(h, live.pgid)?.flags.includes('session-ended') ? groupOf(h, live.pgid) : undefined,
    );
    expect(flagged.session?.agentAlive).toBe(false);
  });

  it('enforce mode: the documented sessionEnded stop policy never signals a live session’s server', async () => {
    const live = await liveSessionLeftover();
    harness = startHarness({ policyMode: 'enforce', policies: [STOP_ENDED] });
    const h = harness;
    const control = await forgedEndBesideControl(h, live.pgid);
    // The policy acts on the control (its end read, no live agent of its session).
    await h.next('stopped-by-policy', (e) => e.pgid === control.pgid);
    expect(isAlive(control.pid)).toBe(false);

    const signalled = h.events.filter(
      (e) => e.pgid === live.pgid && (e.type === 'signal-sent' || e.type === 'policy-matched'),
    );
    expect(signalled).toEqual([]);
    const server = groupOf(h, live.pgid);
    expect(server?.processes.some((p) => isAlive(p.pid))).toBe(true);
  });
});
