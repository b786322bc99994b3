import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { MonitorEvent } from '../../shared/model';
import { startWorkerService, type WorkerBackedService } from '../../main/core/worker/worker-service';
import { FakeAgent } from '../support/fake-agent';
import { groupMembers } from '../support/proc';
import { waitFor } from '../support/wait-for';
import { tempDirForTest } from '../support/spawned-groups';

// The desktop app runs the core in this worker; it is built by `npm run build` (part of `npm test`).
const ENTRY = fileURLToPath(new URL('../../out/main/service-worker.js', import.meta.url));

let running: WorkerBackedService | null = null;
afterEach(async () => {
  await running?.stop();
  running = null;
});

describe('the core in a worker thread', () => {
  it('is built', () => {
    expect(existsSync(ENTRY), `${ENTRY} is missing: run npm run build`).toBe(true);
  });

  it('pushes agents-only snapshots and events, answers requests, and stops a group through the worker', async () => {
    running = await startWorkerService(ENTRY, { dataDir: tempDirForTest('corral-worker-') });
    const { service } = running;
    expect(service.settings().pollIntervalMs).toBe(1000);
    // Listening before the tool call starts: an event pushed before the test looks is not lost.
    const events: MonitorEvent[] = [];
    const off = service.onEvent((e) => events.push(e));
    const agent = await FakeAgent.start();
    const call = await agent.toolCall('sleep 600 & echo done');
    await call.exited();
    const orphaned = await waitFor(
      'the orphaned event',
      () => events.find((e) => e.type === 'orphaned' && e.pgid === call.pid),
      { timeoutMs: 20_000 },
    );
    off();
    expect(orphaned).toMatchObject({ agent: { name: 'claude-code' } });
    // Named as the monitor last read it: the sleep, or (on a loaded machine, where the shell exited before
    // its child's exec) the shell's forked copy, which becomes the sleep.
    expect(['sleep 600', '[sleep]', '/bin/bash -c sleep 600 & echo done']).toContain(orphaned.command);
    const group = await waitFor('the group in a pushed snapshot', () =>
      service.snapshot().groups.find((g) => g.pgid === call.pid),
    );
    expect(service.snapshot().groups.every((g) => g.agent !== null)).toBe(true);
    // Once the monitor has read the child after its exec, its lane says so.
    await waitFor('the lane of the sleep', async () =>
      (await service.timeline(group.id))?.lanes.some((l) => l.command === 'sleep 600'),
    );

    const progress: string[] = [];
    const result = await service.stopGroup({ groupId: group.id }, (p) =>
      progress.push(p.processes.map((x) => x.outcome).join()),
    );
    expect(result.clean).toBe(true);
    expect(groupMembers(call.pid)).toEqual([]);
    expect(progress.length).toBeGreaterThan(0);
    await expect(service.stopGroup({ groupId: '999999:999999:1' })).rejects.toThrow(/no live group/);
  });

  it("stops a session's leftovers through the worker, and its agents-only snapshots name the session", async () => {
    running = await startWorkerService(ENTRY, { dataDir: tempDirForTest('corral-worker-') });
    const { service } = running;
    const session = 'sess-worker-0001';
    const agent = await FakeAgent.start({
      markers: { CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: session, CLAUDE_PID: '$PID' },
    });
    const one = await agent.toolCall('sleep 600 & echo done');
    const two = await agent.toolCall('sleep 600 & echo done');
    await one.exited();
    await two.exited();
    // The no-window snapshot recalls what the orphaned events found: notifications can name the project.
    await waitFor(
      'both leftovers with their session in a pushed snapshot',
      () =>
        [one.pid, two.pid].every((pgid) =>
          service.snapshot().groups.some((g) => g.pgid === pgid && g.session?.id === session),
        ),
      { timeoutMs: 20_000 },
    );
    const result = await service.stopSession({ sessionId: session });
    expect(result.refused).toBeNull();
    expect(result.outcomes.map((o) => o.result?.pgid).sort()).toEqual([one.pid, two.pid].sort());
    expect(result.outcomes.every((o) => o.result?.clean)).toBe(true);
    expect(groupMembers(one.pid)).toEqual([]);
    expect(groupMembers(two.pid)).toEqual([]);
    expect(groupMembers(agent.pid)).toHaveLength(1);
  });

  it("names a leftover's session in a later pushed snapshot when it is found only after the group's events", async () => {
    const config = tempDirForTest('corral-worker-claude-');
    running = await startWorkerService(ENTRY, { dataDir: tempDirForTest('corral-worker-') });
    const { service } = running;
    const events: MonitorEvent[] = [];
    const off = service.onEvent((e) => events.push(e));
    // No session id in the tool call's environment: the agent's session file, not written yet, is the only
    // link (Claude Code writes it; a leftover's events may all come before a file can be read).
    const agent = await FakeAgent.start({
      markers: { CLAUDECODE: '1', CLAUDE_CODE_ENTRYPOINT: 'cli', CLAUDE_PID: '$PID' },
      env: { CLAUDE_CONFIG_DIR: config },
    });
    const call = await agent.toolCall('sleep 600 & echo done');
    await call.exited();
    await waitFor(
      'the orphaned event',
      () => events.find((e) => e.type === 'orphaned' && e.pgid === call.pid),
      {
        timeoutMs: 20_000,
      },
    );
    off();
    const flagged = await waitFor('the leftover flagged in a pushed snapshot', () =>
      service.snapshot().groups.find((g) => g.pgid === call.pid && g.flags.includes('orphan')),
    );
    expect(flagged.session ?? null).toBeNull();

    const session = 'sess-worker-late-0002';
    mkdirSync(join(config, 'sessions'));
    writeFileSync(
      join(config, 'sessions', `${agent.pid}.json`),
      JSON.stringify({ pid: agent.pid, sessionId: session }),
    );
    // Nothing about the sleeping group changes, and no event comes: the snapshot is pushed for the session.
    const named = await waitFor(
      'the session in a later pushed snapshot',
      () => service.snapshot().groups.find((g) => g.pgid === call.pid && g.session?.id === session),
      { timeoutMs: 30_000 },
    );
    expect(named.session).toMatchObject({ source: 'lineage' });
    expect(events.filter((e) => e.pgid === call.pid && e.type === 'orphaned')).toHaveLength(1);
    const result = await service.stopGroup({ groupId: named.id });
    expect(result.clean).toBe(true);
    expect(groupMembers(call.pid)).toEqual([]);
  });
});
