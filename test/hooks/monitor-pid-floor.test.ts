import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PidCounterFeed } from '../../main/core/sampling/pid-counter-feed';
import { answerHook } from '../../main/hooks/hook-answer';
import { PidCounterReadings } from '../../main/hooks/pid-counter-readings';
import { serviceHookContextFactory } from '../../main/hooks/service-hook-context';
import { startHarness, type Harness } from '../support/service-harness';
import { cleanEnv, trackGroup } from '../support/spawned-groups';
import {
  afterToolPayload,
  lastPid,
  leaveHoles,
  markedLeftover,
  probedPids,
} from '../support/pid-walk-fixtures';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs';
import { waitFor } from '../support/wait-for';

const tempDir = tempDirsRemovedAfterEach();
let harness: Harness | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await harness?.stop();
  harness = null;
});

function uptimeMs(): number {
  const [s, cs] = readFileSync('/proc/uptime', 'latin1').split(' ')[0]!.split('.');
  return Number(s) * 1000 + Number(cs) * 10;
}

const payload = (session: string, call: number, durationMs: number): string =>
  afterToolPayload(session, `toolu_monitorfloor${call}`, durationMs);

/** How much earlier than `now − duration_ms` an after-tool answer takes a call to have begun (hook-answer.ts). */
const DELIVERY_SLACK_MS = 2_000;

describe.runIf(process.platform === 'linux')('the walk floor fed by the monitor in the same process', () => {
  it('a call more than 30 s after the previous answer probes nothing below the monitor’s reading, and names the same leftover', async () => {
    const data = tempDir('corral-monitor-floor-');
    const older = spawn('/bin/sleep', ['600'], { detached: true, stdio: 'ignore', env: cleanEnv() });
    trackGroup(older.pid!);
    // Holes between a live older process and every reading of the counter below.
    await leaveHoles(20);
    const holesTop = lastPid();

    // A real service: its monitor polls (and reads the counter) every 200 ms from now on.
    harness = startHarness({}, tempDir('corral-monitor-floor-data-'));
    const running = harness.running;
    let firstPollAt: number | null = null;
    running.monitor.onPoll(() => (firstPollAt ??= performance.now()));
    const polled = await waitFor('the monitor’s first poll', () => firstPollAt ?? undefined);

    // The hook server's clock is set back 31 s for the service's start and the session's previous
    // answer: their own readings of the counter are too old to serve when the next call is answered.
    let setBackMs = 31_000;
    const context = serviceHookContextFactory(data, '/proc', {
      monitorReadings: running.pidCounter,
      uptimeMs: () => uptimeMs() - setBackMs,
    })!;
    const session = `monitor-floor-${process.pid}`;
    expect(answerHook('claude-code', 'PostToolUse', payload(session, 0, 0), context())).toBe('');
    setBackMs = 0;

    // With no before-tool record, the call is taken to have begun DELIVERY_SLACK_MS before
    // `now − duration_ms`: a reading of the monitor's serves only when it was taken before that.
    await waitFor('the slack to pass since the monitor’s first poll', () => {
      return performance.now() > polled + DELIVERY_SLACK_MS + 100;
    });
    const callBegan = performance.now();
    const leftover = await markedLeftover(session);
    await leaveHoles(5);

    const probed = probedPids();
    const duration = Math.ceil(performance.now() - callBegan);
    const out = answerHook('claude-code', 'PostToolUse', payload(session, 1, duration), context());
    const note = (JSON.parse(out) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
      .additionalContext;
    expect(note).toContain('Corral: this command left 1 process running');
    expect(note).toContain(`- pid ${leftover} (process group `);
    expect(probed).toContain(leftover);
    // Without the monitor's readings the walk went on down through the holes to `older`.
    expect(Math.min(...probed)).toBeGreaterThan(holesTop);
  });
});

describe('the monitor’s readings on the tick clock', () => {
  /** A feed on a clock the test sets, and readings anchored at tick 1000 = monotonic 50,000 ms. */
  function setUp(): { feed: PidCounterFeed; readings: PidCounterReadings; at: (ms: number) => void } {
    let clock = 0;
    const feed = new PidCounterFeed(() => clock);
    const readings = new PidCounterReadings(3000, { feed, tickMs: 10 });
    return { feed, readings, at: (ms) => (clock = ms) };
  }

  it('serves a reading only from a tick before the start, counting from the answer’s anchor', () => {
    const { feed, readings, at } = setUp();
    for (const [ms, pid] of [
      [49_000, 100],
      [49_984, 150],
      [49_995, 170],
    ] as const) {
      at(ms);
      feed.note(pid);
    }
    at(50_000);
    readings.note(200, 1000, 50_000);
    // 5 ms before the anchor may be within the anchor's own tick (the uptime read came after).
    expect(readings.before(1000, 1000)).toBe(150);
    // 16 ms before it: at the latest in tick 999.
    expect(readings.before(999, 1000)).toBe(100);
    expect(readings.before(900, 1000)).toBeNull();
    expect(readings.before(901, 1000)).toBe(100);
  });

  it('skips a reading taken after the anchor, and none older than the age limit is used', () => {
    const { feed, readings, at } = setUp();
    at(10_000);
    feed.note(100);
    at(40_000);
    readings.note(200, 1000, 40_000);
    at(40_500);
    feed.note(300);
    expect(readings.before(1001, 1000)).toBe(200);
    readings.note(-1, 1000, 40_010);
    // 30 s and 10 ms before the anchor: beyond 3,000 ticks.
    expect(readings.before(1000, 1000)).toBeNull();
  });

  it('takes the later of the answer’s and the monitor’s readings', () => {
    const { feed, readings, at } = setUp();
    at(45_000);
    readings.note(100, 500, 45_000);
    at(49_000);
    feed.note(300);
    at(50_000);
    readings.note(400, 1000, 50_000);
    // The monitor's reading is at tick 900 at the latest, the answer's at 500.
    expect(readings.before(950, 1000)).toBe(300);
    expect(readings.before(900, 1000)).toBe(100);
  });

  it('keeps readings half a second apart, back further than their age limit, and always the newest', () => {
    const { feed, at } = setUp();
    for (let ms = 0; ms <= 40_000; ms += 20) {
      at(ms);
      feed.note(1 + ms / 20);
    }
    expect(feed.newest(() => true)).toEqual({ lastPid: 2001, atMs: 40_000 });
    expect(feed.newest((ms) => ms < 39_990)).toEqual({ lastPid: 1976, atMs: 39_500 });
    expect(feed.newest((ms) => ms <= 9_000)).toEqual({ lastPid: 451, atMs: 9_000 });
    // 64 kept: the oldest 31.5 s before the newest.
    expect(feed.newest((ms) => ms <= 8_500)?.atMs).toBe(8_500);
    expect(feed.newest((ms) => ms < 8_500)).toBeNull();
    expect(feed.newest((ms) => (ms < 20_000 ? 'too old' : ms < 30_000))?.atMs).toBe(29_500);
    expect(feed.newest((ms) => (ms < 30_000 ? 'too old' : ms < 30_000))).toBeNull();
    at(40_010);
    feed.note(5000);
    feed.note(-1);
    expect(feed.newest(() => true)).toEqual({ lastPid: 5000, atMs: 40_010 });
    expect(feed.newest((ms) => ms < 40_010)?.atMs).toBe(40_000);
  });
});
