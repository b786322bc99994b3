// What ships, as whole processes (all threads, /proc/<pid>/stat): `corral watch --json` (the monitor
// alone, the baseline), `corral serve` with no page and then with one real Chromium page on
// "Everything" (and that page's renderer), and the desktop arrangement (the core in a worker thread from
// the built out/main/service-worker.js, in a plain Node process). The CLI is bundled to plain JavaScript
// as it ships. The three no-viewer processes are measured over the same window, side by side.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { bundleForNode } from '../lib/plain-node';
import { killGroup, procCount, removeGroups, spawnPopulation } from '../lib/populations';
import { cpuPercentOver, rendererPids } from '../lib/proc-cpu';
import { startShippedChild } from '../lib/shipped-child';
import { sleep, waitUntil } from '../lib/wait';
import { startAgentPopulation } from './agent-population';

const CLI = fileURLToPath(new URL('../../main/cli/corral.ts', import.meta.url));
const DESKTOP_CHILD = fileURLToPath(new URL('../desktop-child.ts', import.meta.url));
const WORKER_ENTRY = fileURLToPath(new URL('../../out/main/service-worker.js', import.meta.url));
const RENDERER_INDEX = fileURLToPath(new URL('../../out/renderer/index.html', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';

export interface ShippedPlan {
  warmupSeconds: number;
  /**
   * The no-viewer window: long, because the targets there sit 0.05 % of a core above the baseline, which
   * is 1.5 clock ticks in 30 s. The three start together, so their sweeps every 300 polls fall at the
   * same times, outside this window for all of them.
   */
  idleWindowSeconds: number;
  /** The page's window, and the control page's. */
  windowSeconds: number;
  /**
   * After the page opened on "Everything", before its steady window: the views, pushes and their
   * decoration run only while a page looks, and V8 optimizes code that runs once a second only after
   * minutes (see bench/phases/monitor-cost-process.ts). With an agent at 1,000 processes, `--trace-opt`
   * counted 10, 5, 7, 1, 2 and 4 functions optimized per 30 s from 150 s after the page opened, and the
   * compiler threads cost `serve` 0.19–0.55 % of a core until about 270 s, 0.04–0.13 % after.
   */
  pageWarmupSeconds: number;
  /** When the page's first-minutes window begins (it ends `windowSeconds` later, before the steady one). */
  pageEarlyFromSeconds: number;
  /** After the control page was loaded, before its window (Chromium's own warm-up is short). */
  controlWarmupSeconds: number;
}

/** % of one core per arrangement over one scenario's windows; null where it could not run. */
export interface ShippedCost {
  extra: number;
  agent: boolean;
  tableSize: number;
  idleWindowSeconds: number;
  windowSeconds: number;
  /** How long the page had been open when its window began. */
  pageWarmupSeconds: number;
  pageEarlyFromSeconds: number;
  watch: number;
  serveNoPage: number;
  desktopNoWindow: number | null;
  servePage: number | null;
  pageRenderer: number | null;
  /** `serve` and the page over the same length of window, from `pageEarlyFromSeconds` after it opened. */
  servePageEarly: number | null;
  pageRendererEarly: number | null;
  /**
   * Chromium's own floor, in the same browser and window length: the renderer(s) of a control page whose
   * only work is changing one text node once a second (Corral's page changes some text every second).
   */
  controlPage: number | null;
  renderers: number;
  missing: string[];
}

interface Started {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
}

function start(args: string[], dir: string, name: string): Started {
  const child = startShippedChild(args, dir, name, 'pipe');
  const lines: string[] = [];
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
  return { child, lines, stderr: () => err };
}

/** Builds the bundles once; returns what is missing to run every arrangement. */
export async function prepareShipped(): Promise<{ cli: string; desktop: string; missing: string[] }> {
  const missing: string[] = [];
  if (!existsSync(WORKER_ENTRY)) missing.push('out/main/service-worker.js not built (npm run build)');
  if (!existsSync(RENDERER_INDEX)) missing.push('out/renderer not built (npm run build)');
  if (!existsSync(CHROMIUM)) missing.push(`${CHROMIUM} not installed`);
  return { cli: await bundleForNode(CLI), desktop: await bundleForNode(DESKTOP_CHILD), missing };
}

export async function measureShipped(
  bundles: { cli: string; desktop: string; missing: string[] },
  scenario: { extra: number; agent: boolean; tableSize: number },
  plan: ShippedPlan,
  log: (msg: string) => void,
): Promise<ShippedCost> {
  const dir = mkdtempSync(join(tmpdir(), 'corral-bench-shipped-'));
  writeFileSync(join(dir, 'config.json'), '{}');
  const started: Started[] = [];
  const canDesktop = existsSync(WORKER_ENTRY);
  const canPage = existsSync(RENDERER_INDEX) && existsSync(CHROMIUM);
  try {
    const watch = start([bundles.cli, 'watch', '--json'], dir, 'watch');
    const serve = start([bundles.cli, 'serve', '--port', '0'], dir, 'serve');
    const desktop = canDesktop
      ? start([bundles.desktop, WORKER_ENTRY, join(dir, 'desktop-data')], dir, 'desktop')
      : null;
    started.push(watch, serve, ...(desktop ? [desktop] : []));
    const url = await waitUntil(
      'corral serve to print its URL',
      () => {
        for (const s of started)
          if (s.child.exitCode !== null) throw new Error(`a shipped process exited: ${s.stderr().trim()}`);
        const line = serve.lines.find((l) => l.startsWith('Corral is serving on '));
        return line ? line.slice('Corral is serving on '.length).trim() : undefined;
      },
      60_000,
      50,
    );
    if (desktop)
      await waitUntil(
        'the desktop worker to start',
        () => desktop.lines.includes('ready') || undefined,
        60_000,
        50,
      );

    log(`  no viewer: ${plan.warmupSeconds} s warm-up, ${plan.idleWindowSeconds} s window`);
    await sleep(plan.warmupSeconds * 1000);
    const idle = await cpuPercentOver(
      {
        watch: [watch.child.pid!],
        serve: [serve.child.pid!],
        ...(desktop ? { desktop: [desktop.child.pid!] } : {}),
      },
      plan.idleWindowSeconds,
    );
    // The baseline and the desktop go before the page opens, so they do not compete with Chromium.
    for (const s of [watch, desktop]) if (s) killGroup(s.child.pid!);

    let servePage: number | null = null;
    let pageRenderer: number | null = null;
    let servePageEarly: number | null = null;
    let pageRendererEarly: number | null = null;
    let controlPage: number | null = null;
    let renderers = 0;
    if (canPage) {
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      try {
        const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        await page.goto(url);
        await page.getByRole('radio', { name: 'Everything', exact: true }).check();
        await page
          .locator('tr[data-testid=group-row]')
          .first()
          .waitFor({ state: 'visible', timeout: 60_000 });
        const opened = performance.now();
        log(
          `  page on "Everything": windows of ${plan.windowSeconds} s from ${plan.pageEarlyFromSeconds} s and from ${plan.pageWarmupSeconds} s`,
        );
        await sleep(plan.pageEarlyFromSeconds * 1000);
        const pids = rendererPids(process.pid);
        renderers = pids.length;
        const early = await cpuPercentOver({ serve: [serve.child.pid!], page: pids }, plan.windowSeconds);
        servePageEarly = early.serve!;
        pageRendererEarly = pids.length > 0 ? early.page! : null;
        await sleep(Math.max(0, opened + plan.pageWarmupSeconds * 1000 - performance.now()));
        const withPage = await cpuPercentOver({ serve: [serve.child.pid!], page: pids }, plan.windowSeconds);
        servePage = withPage.serve!;
        pageRenderer = pids.length > 0 ? withPage.page! : null;
        controlPage = await measureControlPage(page, plan);
      } finally {
        await browser.close();
      }
    }
    return {
      ...scenario,
      idleWindowSeconds: plan.idleWindowSeconds,
      windowSeconds: plan.windowSeconds,
      pageWarmupSeconds: plan.pageWarmupSeconds,
      pageEarlyFromSeconds: plan.pageEarlyFromSeconds,
      watch: idle.watch!,
      serveNoPage: idle.serve!,
      desktopNoWindow: idle.desktop ?? null,
      servePage,
      pageRenderer,
      servePageEarly,
      pageRendererEarly,
      controlPage,
      renderers,
      missing: bundles.missing,
    };
  } finally {
    for (const s of started) killGroup(s.child.pid!);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A page that changes one text node once a second and does nothing else. */
const CONTROL_PAGE = `<!doctype html><title>control</title><p id="t">0</p>
<script>let n = 0; setInterval(() => { document.getElementById('t').textContent = String(++n); }, 1000);</script>`;

/** The renderer CPU of the control page, loaded in place of Corral's page, over the same window. */
async function measureControlPage(page: Page, plan: ShippedPlan): Promise<number | null> {
  await page.goto('about:blank');
  await page.setContent(CONTROL_PAGE);
  await sleep(plan.controlWarmupSeconds * 1000);
  const pids = rendererPids(process.pid);
  if (pids.length === 0) return null;
  return (await cpuPercentOver({ page: pids }, plan.windowSeconds)).page!;
}

/**
 * The four scenarios, each with its own population: 1,000 and 4,000 extra processes, with no agent,
 * then with a fake agent whose tool calls left 50 descendants (25 of them orphaned, so flagged).
 */
export async function measureShippedScenarios(
  plan: ShippedPlan,
  dir: string,
  log: (msg: string) => void,
): Promise<ShippedCost[]> {
  const bundles = await prepareShipped();
  for (const m of bundles.missing) log(`  shipped: ${m}`);
  const results: ShippedCost[] = [];
  const run = async (extra: number, agent: boolean): Promise<void> => {
    const tableSize = procCount();
    log(
      `shipped arrangements, ${extra} extra${agent ? ' + an agent with 25 orphans' : ''} (${tableSize} in table)`,
    );
    const r = await measureShipped(bundles, { extra, agent, tableSize }, plan, log);
    const pct = (x: number | null): string => (x === null ? '–' : `${x.toFixed(3)} %`);
    log(
      `  watch ${pct(r.watch)}, serve ${pct(r.serveNoPage)}, desktop ${pct(r.desktopNoWindow)}; with the page: serve ${pct(r.servePage)}, page ${pct(r.pageRenderer)}; control page ${pct(r.controlPage)}`,
    );
    results.push(r);
  };
  const base = await spawnPopulation(1000);
  await run(1000, false);
  const more = await spawnPopulation(3000);
  await run(4000, false);
  const agent = await startAgentPopulation(dir);
  try {
    await run(4000, true);
    await removeGroups(more.map((g) => g.pgid));
    await run(1000, true);
  } finally {
    agent.agent.close();
    await removeGroups([...agent.toolCallGroups, agent.agent.pid]);
    await removeGroups(base.map((g) => g.pgid));
  }
  return results;
}
