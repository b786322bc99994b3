// What serving Prometheus costs: `corral metrics` (the CLI bundled to plain JavaScript, as it ships)
// watches the bench's table in a process of its own, and its whole-process CPU is read from
// /proc/<pid>/stat over windows that alternate between no scrapes (the monitor alone) and a scrape
// every 15 s (Prometheus's default interval). A burst of back-to-back scrapes gives the CPU of one.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from '../lib/plain-node';
import { benchEnv, killGroup, trackGroup } from '../lib/populations';
import { sleep, waitUntil } from '../lib/wait';

const CLI = fileURLToPath(new URL('../../main/cli/corral.ts', import.meta.url));
/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

export interface ScrapePlan {
  /** Pairs of windows: one without scrapes, one scraped every `scrapeEverySeconds`. */
  pairs: number;
  windowSeconds: number;
  scrapeEverySeconds: number;
  warmupSeconds: number;
  burst: number;
}

export interface ScrapeCost {
  /** % of one core in each window without scrapes. */
  idlePercent: number[];
  /** % of one core in each window with a scrape every `scrapeEverySeconds`. */
  scrapedPercent: number[];
  windowSeconds: number;
  scrapeEverySeconds: number;
  scrapes: number;
  /** CPU per scrape over a burst of back-to-back scrapes, ms. */
  cpuMsPerScrape: number;
  bytesPerScrape: number;
  tableSize: number;
}

function cpuSecondsOf(pid: number): number {
  const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // utime and stime: fields 14 and 15 of proc(5), 11 and 12 after the name.
  return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
}

function scrape(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/metrics' }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () =>
        res.statusCode === 200 ? resolve(bytes) : reject(new Error(`HTTP ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

export async function measureScrapeCost(plan: ScrapePlan, tableSize: () => number): Promise<ScrapeCost> {
  const script = await bundleForNode(CLI);
  const dir = mkdtempSync(join(tmpdir(), 'corral-bench-metrics-'));
  writeFileSync(join(dir, 'config.json'), '{}');
  const child = spawn(process.execPath, [script, 'metrics', '--port', '0'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: benchEnv({ HOME: dir, CORRAL_CONFIG: join(dir, 'config.json'), CORRAL_DATA_DIR: join(dir, 'data') }),
  });
  trackGroup(child.pid!);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  let port = 0;
  createInterface({ input: child.stdout }).on('line', (line) => {
    const m = /127\.0\.0\.1:(\d+)\/metrics/.exec(line);
    if (m) port = Number(m[1]);
  });
  try {
    await waitUntil('corral metrics to listen', () => port > 0, 30_000, 50);
    // Warm-up: the first polls and the first scrape (prom-client's own start-up) are not steady state.
    await scrape(port);
    await sleep(plan.warmupSeconds * 1000);

    const window = async (scrapeEvery: number | null): Promise<{ percent: number; scrapes: number }> => {
      const c0 = cpuSecondsOf(child.pid!);
      const w0 = performance.now();
      const end = w0 + plan.windowSeconds * 1000;
      let scrapes = 0;
      if (scrapeEvery === null) await sleep(plan.windowSeconds * 1000);
      else
        for (let next = w0; next < end; next += scrapeEvery * 1000) {
          await sleep(Math.max(0, next - performance.now()));
          await scrape(port);
          scrapes++;
        }
      await sleep(Math.max(0, end - performance.now()));
      const cpu = cpuSecondsOf(child.pid!) - c0;
      return { percent: (cpu / ((performance.now() - w0) / 1000)) * 100, scrapes };
    };
    const idlePercent: number[] = [];
    const scrapedPercent: number[] = [];
    let scrapes = 0;
    for (let i = 0; i < plan.pairs; i++) {
      idlePercent.push((await window(null)).percent);
      const scraped = await window(plan.scrapeEverySeconds);
      scrapedPercent.push(scraped.percent);
      scrapes += scraped.scrapes;
    }

    const b0 = cpuSecondsOf(child.pid!);
    let bytes = 0;
    for (let i = 0; i < plan.burst; i++) bytes = await scrape(port);
    const cpuMsPerScrape = ((cpuSecondsOf(child.pid!) - b0) * 1000) / plan.burst;

    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    if (code !== 0 || stderr.trim() !== '')
      throw new Error(`corral metrics exited ${code}: ${stderr.trim()}`);
    return {
      idlePercent,
      scrapedPercent,
      windowSeconds: plan.windowSeconds,
      scrapeEverySeconds: plan.scrapeEverySeconds,
      scrapes,
      cpuMsPerScrape,
      bytesPerScrape: bytes,
      tableSize: tableSize(),
    };
  } finally {
    killGroup(child.pid!);
    rmSync(dir, { recursive: true, force: true });
  }
}
