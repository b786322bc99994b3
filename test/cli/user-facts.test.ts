import { describeEvent } from '../../main/cli/event-words';
import { describe, expect, it } from 'vitest';
import type { GroupView, Incident } from '../../shared/model';
import { nothingOnPort } from '../../main/core/provenance/resolve-targets';
import { timelineSummary } from '../../shared/words/timeline-story';
import { FakeAgent } from '../support/fake-agent';
import { groupMembers, isAlive } from '../support/proc';
import { runCli } from '../support/run-cli';
import { startHarness, type Harness } from '../support/service-harness';
import { waitFor } from '../support/wait-for';
import { freePort, waitListening } from '../provenance/live-support';

// What the record says must match what the user did: tests with real processes, a real monitor and
// the real CLI sharing one data directory.

const markers = (session: string) => ({
  CLAUDECODE: '1',
  CLAUDE_CODE_SESSION_ID: session,
  CLAUDE_PID: '$PID',
});

const cliEnv = (h: Harness) => ({ CORRAL_CONFIG: '/nonexistent', CORRAL_DATA_DIR: h.dataDir });

async function closedIncident(h: Harness, incidentId: unknown): Promise<Incident> {
  await h.next('incident-closed', (e) => e.detail?.incidentId === incidentId, 20_000);
  return waitFor('the closed incident saved', async () =>
    (await h.running.service.incidents()).find((i) => i.id === incidentId && i.end !== 'open'),
  );
}

describe('what the history and the timeline say after a stop the user asked for', () => {
  it('kill --port is recorded stopped-by-user, and the timeline names corral kill and its signals', async () => {
    const h = startHarness();
    try {
      const port = await freePort();
      const agent = await FakeAgent.start({ markers: markers('sess-facts-port-01') });
      const call = await agent.toolCall(
        `python3 -m http.server ${port} --bind 127.0.0.1 >/dev/null 2>&1 & echo started`,
      );
      await call.closed();
      await waitListening(port);
      const opened = await h.next('incident-opened', (e) => e.pgid === call.pid);
      const r = await runCli(['kill', '--port', String(port), '--grace-ms', '2000'], { env: cliEnv(h) });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(groupMembers(call.pid)).toEqual([]);
      expect((await closedIncident(h, opened.detail?.incidentId)).end).toBe('stopped-by-user');

      const timeline = (await h.running.service.timeline(String(opened.groupId)))!;
      const signals = timeline.lanes.flatMap((l) => l.markers.filter((m) => m.kind === 'signal'));
      expect(signals.length).toBeGreaterThan(0);
      expect(signals.map((m) => m.label)).toContain(`SIGTERM → -${call.pid} (sent)`);
      // A real stop sends SIGCONT after SIGTERM: on its marker (detail), never in the story (issue 47).
      // (ESRCH when the group was empty by then.)
      expect(signals.map((m) => m.label).join('\n')).toMatch(
        new RegExp(`SIGCONT → -${call.pid} \\((sent|ESRCH)\\)`),
      );
      expect(signals.every((m) => /^corral kill \(pid \d+\)$/.test(m.by ?? ''))).toBe(true);
      const story = timelineSummary(timeline, Date.now());
      expect(story).toMatch(
        /stopped by corral kill \(pid \d+\) at [^:]+:\d\d:\d\d[^:]*: SIGTERM → -\d+ \(sent\)/,
      );
      expect(story).not.toContain('all exited');
      expect(story).not.toContain('SIGCONT');
      // watch's event lines say the SIGCONT in words too; `watch --json` keeps the signal's name.
      await h.next('signal-sent', (e) => e.pgid === call.pid && e.detail?.signal === 'SIGCONT');
      const sent = h.events.filter((e) => e.type === 'signal-sent' && e.pgid === call.pid);
      const lines = sent.map(describeEvent);
      expect(lines.join('\n')).not.toContain('SIGCONT');
      expect(lines.join('\n')).toMatch(/woken so that paused processes can end|nothing left to wake/);
    } finally {
      await h.stop();
    }
  });

  it('kill --session is recorded stopped-by-user', async () => {
    const h = startHarness();
    try {
      const session = 'sess-facts-session-01';
      const agent = await FakeAgent.start({ markers: markers(session) });
      const call = await agent.toolCall('sleep 600 >/dev/null 2>&1 & echo started');
      await call.closed();
      const opened = await h.next('incident-opened', (e) => e.pgid === call.pid);
      const r = await runCli(['kill', '--session', session, '--grace-ms', '2000'], { env: cliEnv(h) });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(groupMembers(call.pid)).toEqual([]);
      expect(isAlive(agent.pid)).toBe(true);
      expect((await closedIncident(h, opened.detail?.incidentId)).end).toBe('stopped-by-user');
    } finally {
      await h.stop();
    }
  });
});

describe('held-pipe', () => {
  it('clears within a few polls once the pipe’s reader (the agent) has exited', async () => {
    const h = startHarness();
    try {
      const agent = await FakeAgent.start({ markers: markers('sess-facts-pipe-01') });
      const call = await agent.toolCall('sleep 600 & sleep 0.3; echo done');
      await call.exited();
      await h.next('held-pipe', (e) => e.pgid === call.pid);
      const flagsOf = (): string[] =>
        h.running.service.snapshot().groups.find((g) => g.pgid === call.pid)?.flags ?? [];
      expect(flagsOf()).toContain('held-pipe');

      process.kill(agent.pid, 'SIGKILL');
      await waitFor('the agent reaped', () => !isAlive(agent.pid));
      let polls = 0;
      const off = h.running.monitor.onPoll(() => polls++);
      try {
        // The monitor reads agents' processes every poll: it sees the reader gone at the next one.
        await waitFor('held-pipe cleared', () => !flagsOf().includes('held-pipe') || polls > 4, {
          timeoutMs: 10_000,
        });
        expect(flagsOf()).not.toContain('held-pipe');
        expect(polls).toBeLessThanOrEqual(4);
      } finally {
        off();
      }
      expect(groupMembers(call.pid).length).toBe(1);
    } finally {
      await h.stop();
    }
  });
});

describe('(noticed)', () => {
  it('is not said of a leak born while Corral watched, even one found already adopted', async () => {
    const h = startHarness();
    try {
      const agent = await FakeAgent.start({ markers: markers('sess-facts-seen-01') });
      // The subshell exits at once: Corral first sees the sleep already adopted by PID 1.
      const call = await agent.toolCall('(sleep 600 >/dev/null 2>&1 &); sleep 0.3; echo done');
      const opened = await h.next('incident-opened', (e) => e.pgid === call.pid);
      const incident = (await h.running.service.incidents()).find((i) => i.id === opened.detail?.incidentId);
      expect(incident?.openedAtSource).toBe('observed');
    } finally {
      await h.stop();
    }
  });

  it('is said of a leak that was already running when Corral started', async () => {
    const agent = await FakeAgent.start({ markers: markers('sess-facts-before-01') });
    const call = await agent.toolCall('(sleep 600 >/dev/null 2>&1 &); echo done');
    await call.closed();
    await waitFor('the sleep adopted', () => groupMembers(call.pid).length === 1);
    const h = startHarness();
    try {
      const opened = await h.next('incident-opened', (e) => e.pgid === call.pid);
      const incident = (await h.running.service.incidents()).find((i) => i.id === opened.detail?.incidentId);
      expect(incident?.openedAtSource).toBe('noticed');
    } finally {
      await h.stop();
    }
  });
});

describe('one group, one id', () => {
  it('ps shows the id history recorded for a group whose leader Corral saw exit', async () => {
    const h = startHarness();
    try {
      const agent = await FakeAgent.start({ markers: markers('sess-facts-ids-01') });
      const call = await agent.toolCall('sleep 600 >/dev/null 2>&1 & sleep 0.5; echo done');
      await call.exited();
      const opened = await h.next('incident-opened', (e) => e.pgid === call.pid);
      // Corral saw the wrapper shell lead the group: the id names it.
      expect(String(opened.groupId).startsWith(`${call.pid}:${call.pid}:`)).toBe(true);
      await waitFor('the incident saved', async () =>
        (await h.running.service.incidents()).some((i) => i.id === opened.detail?.incidentId),
      );
      const ps = await runCli(['ps', '--json'], { env: cliEnv(h) });
      expect(ps.code, ps.stderr).toBe(0);
      const g = (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups.find((x) => x.pgid === call.pid);
      expect(g?.id).toBe(opened.groupId);
      const history = await runCli(['history', '--json'], { env: cliEnv(h) });
      const recorded = (JSON.parse(history.stdout) as { incidents: Incident[] }).incidents;
      expect(recorded.find((i) => i.pgid === call.pid)?.groupId).toBe(g?.id);
      // The id ps shows is one kill accepts.
      const kill = await runCli(['kill', g!.id, '--grace-ms', '2000'], { env: cliEnv(h) });
      expect(kill.code, kill.stdout).toBe(0);
      expect(groupMembers(call.pid)).toEqual([]);
    } finally {
      await h.stop();
    }
  });
});

describe('a port nobody listens on', () => {
  it('ps --port and kill --port say it in the same words and exit 3', async () => {
    const port = await freePort();
    const env = { CORRAL_CONFIG: '/nonexistent' };
    const ps = await runCli(['ps', '--port', String(port)], { env });
    const kill = await runCli(['kill', '--port', String(port)], { env });
    const words = nothingOnPort(port);
    expect(ps.stdout.trim()).toBe(`${words[0]!.toUpperCase()}${words.slice(1)}.`);
    expect(kill.stdout).toContain(words);
    expect([ps.code, kill.code]).toEqual([3, 3]);
    const json = await runCli(['ps', '--port', String(port), '--json'], { env });
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout).groups).toEqual([]);
  });
});
