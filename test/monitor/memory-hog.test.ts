import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../support/fake-agent';
import { startHarness, type Harness } from '../support/service-harness';
import { removeDir } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const HOG = fileURLToPath(new URL('../fixtures/memory-hog.py', import.meta.url));
const MB = 1024 * 1024;

let harness: Harness | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await harness?.stop();
  harness = null;
  for (const d of dirs.splice(0)) removeDir(d);
});

const fileWritten = (dir: string, name: string) =>
  waitFor(`${name} from the memory hog`, () => {
    try {
      return readFileSync(join(dir, name), 'utf8') === '1\n';
    } catch {
      return undefined;
    }
  });

describe('memory-hog (real memory)', () => {
  it('flags a group holding memory above the threshold for the window, and clears it with hysteresis', async () => {
    harness = startHarness({ memory: { groupMegabytes: 32, windowSeconds: 0.5 } });
    const h = harness;
    const dir = mkdtempSync(join(tmpdir(), 'corral-hog-'));
    dirs.push(dir);
    const agent = await FakeAgent.start();
    const call = await agent.toolCall(`exec python3 ${HOG} ${dir} 64`);
    await fileWritten(dir, 'held');
    const hog = await h.next('memory-hog', (e) => e.pgid === call.pid);
    expect(hog.detail?.agentProcess).toBe(false);
    expect(Number(hog.detail?.megabytes)).toBeGreaterThanOrEqual(64);
    expect(hog.agent?.name).toBe('claude-code');
    const flagged = h.running.service.snapshot().groups.find((g) => g.pgid === call.pid);
    expect(flagged?.flags).toContain('memory-hog');

    const freeAskedAt = Date.now();
    writeFileSync(join(dir, 'free'), '');
    await fileWritten(dir, 'freed');
    const cleared = await h.next('memory-hog-cleared', (e) => e.pgid === call.pid);
    // Hysteresis: released memory must stay low for at least 2 s before the flag goes.
    expect(cleared.at - freeAskedAt).toBeGreaterThanOrEqual(2000);
    expect(Number(cleared.detail?.peakMegabytes)).toBeGreaterThanOrEqual(64);
    const after = h.running.service.snapshot().groups.find((g) => g.pgid === call.pid);
    expect(after?.flags ?? []).not.toContain('memory-hog');

    const incident = await waitFor('the memory-hog incident closed', async () =>
      (await h.running.service.incidents()).find(
        (i) => i.pgid === call.pid && i.kind === 'memory-hog' && i.end !== 'open',
      ),
    );
    expect(incident.end).toBe('cleared');
    expect(incident.peakRssBytes).toBeGreaterThanOrEqual(64 * MB);
  });

  it("announces an agent's own process above the threshold without flagging its group", async () => {
    // The fake agent is a node process: tens of MB resident, far above 4 MB.
    harness = startHarness({ memory: { groupMegabytes: 4, windowSeconds: 0.5 } });
    const h = harness;
    const agent = await FakeAgent.start();
    const notice = await h.next('memory-hog', (e) => e.pid === agent.pid);
    expect(notice.detail?.agentProcess).toBe(true);
    expect(Number(notice.detail?.megabytes)).toBeGreaterThanOrEqual(4);
    const group = h.running.service.snapshot().groups.find((g) => g.pgid === agent.pid);
    expect(group?.containsAgent).toBe(true);
    expect(group?.flags).not.toContain('memory-hog');
  });
});
