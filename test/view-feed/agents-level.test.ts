// What the tray is sent with no window open: a real service polled by hand, a fake agent, real leftovers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GroupView, Snapshot } from '../../shared/model';
import { createCorralService, type RunningService } from '../../main/core/create-service';
import type { AgentsLevel } from '../../main/core/view-feed/agents-level';
import { FakeAgent } from '../support/fake-agent';
import { handPolledSettings } from '../support/sweeping-monitor';
import { waitFor } from '../support/wait-for';

let dir: string;
let running: RunningService;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'corral-tray-feed-'));
  running = createCorralService({
    config: { path: '(test)', settings: { ...handPolledSettings }, errors: [] },
    dataDir: join(dir, 'data'),
    persistSettings: false,
    onError: (step, err) => {
      throw new Error(`monitor step ${step} failed: ${String(err)}`);
    },
  });
});

afterEach(async () => {
  await running.stop();
  rmSync(dir, { recursive: true, force: true });
});

const group = (snapshot: Snapshot | null, pgid: number): GroupView | undefined =>
  snapshot?.groups.find((g) => g.pgid === pgid);

/** Polls until `found` holds of what the feed would send now. */
const pollUntil = (what: string, feed: AgentsLevel, found: (s: Snapshot) => boolean): Promise<Snapshot> =>
  waitFor(what, () => {
    running.monitor.poll();
    const snapshot = feed.now();
    return found(snapshot) ? snapshot : undefined;
  });

const flaggedOf = (snapshot: Snapshot): string =>
  JSON.stringify(snapshot.groups.filter((g) => g.flags.length > 0));

/**
 * Polls until the feed sends nothing. A send on the way is allowed only when what the tray shows
 * changed (a leftover's flags settling, say): one that repeats the flagged groups as they were fails.
 */
async function settle(feed: AgentsLevel, last: Snapshot): Promise<void> {
  let shown = flaggedOf(last);
  const repeated: string[] = [];
  await waitFor('the feed settled', () => {
    running.monitor.poll();
    const sent = feed.refresh();
    if (sent === null) return true;
    if (flaggedOf(sent) === shown) repeated.push(shown);
    shown = flaggedOf(sent);
    return false;
  });
  expect(repeated, 'sends that changed nothing the tray shows').toEqual([]);
}

// Leftovers that hold no pipe of the tool call's: their only flag is the orphan one.
const LEFTOVER = 'sleep 600 </dev/null >/dev/null 2>&1 & echo done';

describe("the tray's feed", () => {
  it("sends nothing while only an agent's own group moves, and sends each leftover that came or went", async () => {
    const feed = running.feed.agents;
    const agent = await FakeAgent.start();
    // A busy loop in the agent's own process group: its CPU time moves at every poll.
    await agent.toolCall('while :; do :; done', { detached: false });
    const first = await agent.toolCall(LEFTOVER);
    await first.exited();
    await pollUntil(
      'the leftover flagged',
      feed,
      (s) => group(s, first.pid)?.flags.includes('orphan') ?? false,
    );
    const hot = await pollUntil(
      'the agent group read hot',
      feed,
      (s) => (group(s, agent.pid)?.cpuPercent ?? 0) > 0,
    );
    // Once what the leftover shows has settled (its leader seen gone: leaderless), nothing new is sent.
    await settle(feed, hot);

    for (let i = 0; i < 3; i++) {
      const version = running.monitor.viewVersion;
      await waitFor('the busy loop read with other values', () => {
        running.monitor.poll();
        return running.monitor.viewVersion !== version;
      });
      expect(feed.refresh()).toBeNull();
    }

    const second = await agent.toolCall(LEFTOVER);
    await second.exited();
    // The first thing sent after that is the second leftover: nothing else was sent before it.
    const firstSent = await waitFor('a refresh', () => {
      running.monitor.poll();
      return feed.refresh() ?? undefined;
    });
    expect(group(firstSent, second.pid)).toBeDefined();
    expect(feed.refresh()).toBeNull();

    process.kill(-first.pid, 'SIGKILL');
    const gone = await waitFor('a refresh without the first leftover', () => {
      running.monitor.poll();
      const snapshot = feed.refresh();
      return snapshot && !group(snapshot, first.pid) ? snapshot : undefined;
    });
    expect(group(gone, second.pid)?.flags).toContain('orphan');

    // The last flagged group ending leaves only groups the tray does not show: it is told so.
    process.kill(-second.pid, 'SIGKILL');
    const calm = await waitFor('a refresh without the second leftover', () => {
      running.monitor.poll();
      const snapshot = feed.refresh();
      return snapshot && !group(snapshot, second.pid) ? snapshot : undefined;
    });
    expect(calm.groups.filter((g) => g.flags.length > 0)).toEqual([]);
    expect(group(calm, agent.pid)).toBeDefined();
  });

  it('sends a keep, and its end, though the kept group itself did not change', async () => {
    const feed = running.feed.agents;
    const agent = await FakeAgent.start();
    const call = await agent.toolCall(LEFTOVER);
    await call.exited();
    const flagged = await pollUntil(
      'the leftover flagged',
      feed,
      (s) => group(s, call.pid)?.flags.includes('orphan') ?? false,
    );
    await settle(feed, flagged);
    await running.service.keepGroup({ groupId: group(flagged, call.pid)!.id });
    const kept = feed.refresh();
    expect(group(kept, call.pid)?.kept).not.toBeNull();
    expect(feed.refresh()).toBeNull();
    await running.service.unkeepGroup(group(flagged, call.pid)!.id);
    expect(group(feed.refresh(), call.pid)?.kept).toBeNull();
  });
});
