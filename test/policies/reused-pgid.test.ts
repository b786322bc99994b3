import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { PolicyRule } from '../../shared/model';
import { FakeAgent } from '../support/fake-agent';
import { cannotForcePids, spawnGroupWithPid } from '../support/forced-pid';
import { groupMembers, isAlive, readProcStat } from '../support/proc';
import { startHarness, type Harness } from '../support/service-harness';
import { cleanEnv } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { describeUnless } from '../support/skip';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.stop();
  harness = null;
});

const STOP_ORPHANED_LOOPS: PolicyRule = {
  name: 'stop-orphaned-loops',
  match: { flags: ['orphan'], agents: ['claude-code'] },
  action: 'stop',
  graceMs: 500,
};

describeUnless(cannotForcePids)('a PGID reused after an agent group was stopped', () => {
  it('is a stranger: never attributed to the old agent, flagged as its orphan, or stopped', async () => {
    harness = startHarness({ policyMode: 'enforce', policies: [STOP_ORPHANED_LOOPS] });
    const h = harness;
    const agent = await FakeAgent.start();
    const call = await agent.toolCall('until false; do :; done 2>/dev/null & sleep 0.3; echo placeholder');
    await call.exited();
    const pgid = call.pid;
    const stopped = await h.next('stopped-by-policy', (e) => e.pgid === pgid);
    await waitFor('the stopped group empty', () => groupMembers(pgid).length === 0);

    // A process of nobody's agent (no markers, not an agent's descendant) now leads the same PGID and
    // session, and leaves a child behind in it, reparented: what an orphan looks like.
    const stranger = await spawnGroupWithPid(pgid, 'sleep 1000 & echo $! > "$DIR/child"', {
      env: cleanEnv(),
    });
    const child = Number(await stranger.ready('child'));
    await waitFor('the stranger leader gone', () => !isAlive(stranger.pid));
    expect(readProcStat(child)).toMatchObject({ pgid, sid: pgid, ppid: 1 });
    const seenAfter = h.events.length;

    let polls = 0;
    const unsubscribe = h.running.monitor.onPoll(() => polls++);
    await waitFor('five polls, each followed by the policies', () => polls >= 5);
    unsubscribe();

    const later = h.events.slice(seenAfter).filter((e) => e.pgid === pgid);
    expect(later.map((e) => `${e.type} ${e.pid} ${e.agent?.name ?? 'no agent'}`)).toEqual([]);
    expect(h.events.filter((e) => e.type === 'stopped-by-policy' && e.pgid === pgid)).toEqual([stopped]);
    expect(isAlive(child)).toBe(true);
    const shown = h.running.service.snapshot().groups.filter((g) => g.pgid === pgid);
    expect(shown.map((g) => g.agent)).toEqual(shown.map(() => null));
    expect(readFileSync(join(stranger.dir, 'child'), 'utf8').trim()).toBe(String(child));
  });
});
