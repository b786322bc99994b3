// Work done for viewers (view snapshots, host facts, pushes) happens only while someone looks: a real
// service and a real server, with the host facts counted through the service's `host` seam.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { createCorralService, type RunningService } from '../../main/core/create-service';
import { HostInfoSource } from '../../main/core/host/host-info';
import { startServer, type RunningServer } from '../../main/serve/start-server';
import type { HostInfo } from '../../shared/model';
import { waitFor } from '../support/wait-for';

/** The real host source, counting how often the service asks it (once per view snapshot built). */
class CountingHost extends HostInfoSource {
  asked = 0;
  override current(): HostInfo {
    this.asked++;
    return super.current();
  }
}

let dir: string;
let host: CountingHost;
let running: RunningService;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'corral-viewers-'));
  host = new CountingHost();
  running = createCorralService({
    config: { path: '(test)', settings: { ...DEFAULT_SETTINGS }, errors: [] },
    dataDir: join(dir, 'data'),
    persistSettings: false,
    host,
    onError: (step, err) => {
      throw new Error(`monitor step ${step} failed: ${String(err)}`);
    },
  });
});

afterEach(async () => {
  await running.stop();
  rmSync(dir, { recursive: true, force: true });
});

const polls = (n: number): void => {
  for (let i = 0; i < n; i++) running.monitor.poll();
};

describe('the service works for viewers only while there are viewers', () => {
  it('builds no snapshot and reads no host facts with no subscriber; a subscriber starts both, the last leaving stops them', () => {
    polls(20);
    expect(host.asked).toBe(0);
    expect(host.reads).toBe(0);

    const seen: number[] = [];
    const offA = running.service.onSnapshot((s) => seen.push(s.seq));
    const offB = running.service.onSnapshot(() => {});
    polls(3);
    expect(seen).toHaveLength(3);
    // One snapshot per poll, shared by both subscribers.
    expect(host.asked).toBe(3);
    expect(host.reads).toBe(1);

    offA();
    polls(2);
    expect(host.asked).toBe(5);
    offB();
    polls(20);
    expect(host.asked).toBe(5);
    expect(seen).toHaveLength(3);
  });

  it('reads the host facts with the whole-table sweeps a viewer asks for, so that both reach it in one push', () => {
    const steps: { sweeps: number; reads: number }[] = [];
    const off = running.service.onSnapshot(() =>
      steps.push({ sweeps: running.monitor.sweepCount, reads: host.reads }),
    );
    polls(16);
    off();
    expect(steps).toHaveLength(16);
    // A view of every group sweeps every 5th poll (3 sweeps after the first push), with a host read each.
    expect(steps[15]!.sweeps - steps[0]!.sweeps).toBe(3);
    for (let i = 1; i < steps.length; i++) {
      const swept = steps[i]!.sweeps - steps[i - 1]!.sweeps;
      expect(steps[i]!.reads - steps[i - 1]!.reads, `poll ${i}`).toBe(swept);
    }
  });

  it('the host facts come from the system without a process: memory, load and OS name', async () => {
    const info = host.current();
    expect(info.totalMemBytes).toBeGreaterThan(0);
    expect(info.freeMemBytes).toBeGreaterThan(0);
    expect(info.freeMemBytes).toBeLessThanOrEqual(info.totalMemBytes);
    expect(info.os).toMatch(/\S/);
    // The load is a delta of /proc/stat: it exists once the kernel's counters have moved between reads.
    const load = await waitFor('a CPU load figure', () => {
      host.refresh();
      return host.current().cpuLoadPercent;
    });
    expect(load).toBeGreaterThanOrEqual(0);
    expect(load).toBeLessThanOrEqual(100);
  });
});

describe('corral serve with no page open', () => {
  let server: RunningServer;

  beforeEach(async () => {
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Corral</title>');
    server = await startServer(running.service, { port: 0, host: '127.0.0.1', staticDir: dir });
  });

  afterEach(async () => {
    await server.close();
  });

  it('builds no view snapshots until a page connects, and stops when it leaves', async () => {
    polls(20);
    expect(host.asked).toBe(0);

    const port = Number(new URL(server.url).port);
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api?token=${server.token}`, {
      headers: { Origin: `http://127.0.0.1:${port}` },
    });
    const pushes: string[] = [];
    ws.on('message', (data) => pushes.push(String(data)));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    // The page gets one snapshot on connecting; while it looks, a view is built each poll (and pushed
    // only when something in it changed).
    await waitFor('the first snapshot', () => pushes.length >= 1 || undefined);
    const askedOnConnect = host.asked;
    expect(askedOnConnect).toBe(1);
    polls(3);
    expect(host.asked).toBe(askedOnConnect + 3);

    ws.close();
    await waitFor('the server to see the page leave', () => {
      const before = host.asked;
      polls(1);
      return host.asked === before || undefined;
    });
    const after = host.asked;
    polls(20);
    expect(host.asked).toBe(after);
  });
});
