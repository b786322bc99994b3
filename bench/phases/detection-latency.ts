import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { BenchAgent } from '../lib/fake-agent-driver';
import { bundleForNode } from '../lib/plain-node';
import { killGroup } from '../lib/populations';
import { sleep, waitUntil } from '../lib/wait';

const CHILD = fileURLToPath(new URL('../detection-child.ts', import.meta.url));

export interface LatencyVariant {
  name: string;
  /** Seconds the wrapper keeps running after it started its background child. */
  wrapperLivesSeconds: number;
  /**
   * Seconds without any tool call before each trial: the monitor's watch between polls is then off
   * (main/core/monitor/schedule/watch-pace.ts, busy for 5 s after an agent's process came or went), so a wrapper
   * gone before any look is found by the next poll. 0: trials follow each other within a second.
   */
  quietSeconds?: number;
}

/** What the monitor knew about a left-behind child it never reported as orphaned in time. */
export interface Miss {
  child: number;
  wrapper: number;
  tracked: {
    ppid: number;
    pgid: number;
    state: string;
    attributed: boolean;
    originalPpid: number | null;
    orphanedAt: number | null;
    exitedAt: number | null;
    firstSeenAt: number;
  } | null;
  monitorErrors: { count: number; last: string | null };
}

export interface LatencyResult {
  variant: LatencyVariant;
  latenciesMs: number[];
  /** Trials whose orphan was not reported within the deadline (counted as the deadline in latenciesMs). */
  missed: number;
  misses: Miss[];
  /** PGIDs of the trials, SIGKILLed right after each trial; the caller waits for them to empty. */
  groups: number[];
}

/**
 * The monitor under measurement, in a Node process of its own (bench/detection-child.ts): when each
 * orphan was reported there, and what it knew of one it missed.
 */
export interface DetectionMonitor {
  orphanedAt(pid: number): number | undefined;
  /** When the monitor flagged `pid` runaway (its first `runaway` event). */
  runawayAt(pid: number): number | undefined;
  describeMiss(child: number, wrapper: number): Promise<Miss>;
  /** Stops it; resolves with the errors its monitor counted. */
  stop(): Promise<{ count: number; last: string | null }>;
}

/** Starts the monitor in its own process (bundled JavaScript, as the app ships it); resolves once it polled. */
export async function startDetectionMonitor(): Promise<DetectionMonitor> {
  const script = await bundleForNode(CHILD);
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [script], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const orphaned = new Map<number, number>();
  const runaways = new Map<number, number>();
  const misses: Miss[] = [];
  let ready = false;
  let errors: { count: number; last: string | null } | null = null;
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const msg = JSON.parse(line) as {
      ready?: true;
      orphaned?: number;
      runaway?: number;
      at?: number;
      miss?: Miss;
      errors?: { count: number; last: string | null };
    };
    if (msg.ready) ready = true;
    if (msg.orphaned !== undefined && msg.at !== undefined) orphaned.set(msg.orphaned, msg.at);
    if (msg.runaway !== undefined && msg.at !== undefined && !runaways.has(msg.runaway))
      runaways.set(msg.runaway, msg.at);
    if (msg.miss) misses.push(msg.miss);
    if (msg.errors) errors = msg.errors;
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  const alive = (): void => {
    if (child.exitCode !== null)
      throw new Error(`detection monitor exited ${child.exitCode}: ${stderr.trim()}`);
  };
  await waitUntil('detection monitor ready', () => (alive(), ready), 60_000);
  return {
    orphanedAt: (pid) => orphaned.get(pid),
    runawayAt: (pid) => runaways.get(pid),
    async describeMiss(pid, wrapper) {
      const before = misses.length;
      child.stdin.write(`${JSON.stringify({ describe: { child: pid, wrapper } })}\n`);
      return waitUntil(`what the monitor knew of ${pid}`, () => (alive(), misses[before]));
    },
    async stop() {
      child.stdin.end();
      const code = await closed;
      if (code !== 0) throw new Error(`detection monitor exited ${code}: ${stderr.trim()}`);
      return errors ?? { count: 0, last: null };
    },
  };
}

const DEADLINE_MS = 5000;

/**
 * Trials start after a random pause of up to one poll interval: started right after the previous
 * detection, they would all land at the same phase of the monitor's timers and measure one point of it.
 */
const JITTER_MS = 1000;

/**
 * Per trial: the agent runs `sleep 600 & …` as a tool call; the wrapper writes `date +%s%N` as its
 * last act, and the latency runs from that stamp to the moment the monitor's `orphaned` event for the
 * left-behind sleep reaches a listener (in the monitor's process). Each trial's group is then removed
 * by its PGID.
 */
export async function measureDetectionLatency(
  monitor: DetectionMonitor,
  agent: BenchAgent,
  dir: string,
  variant: LatencyVariant,
  trials: number,
): Promise<LatencyResult> {
  const latenciesMs: number[] = [];
  const misses: Miss[] = [];
  const groups: number[] = [];
  const quiet = variant.quietSeconds ?? 0;
  for (let n = 0; n < trials; n++) {
    await sleep(quiet * 1000 + Math.random() * JITTER_MS);
    const tag = `${quiet > 0 ? 'quiet-' : ''}${variant.wrapperLivesSeconds}-${n}`;
    const pause = variant.wrapperLivesSeconds > 0 ? `sleep ${variant.wrapperLivesSeconds}; ` : '';
    const { id, pid } = await agent.toolCall(
      `sleep 600 & echo $! > "$DIR/child-${tag}"; ${pause}date +%s%N > "$DIR/exit-${tag}"`,
    );
    try {
      await agent.exited(id);
      const child = Number(readFileSync(join(dir, `child-${tag}`), 'utf8'));
      const exitMs = Number(BigInt(readFileSync(join(dir, `exit-${tag}`), 'utf8').trim()) / 1000n) / 1000;
      try {
        const at = await waitUntil(
          `orphaned event for ${child}`,
          () => monitor.orphanedAt(child),
          DEADLINE_MS,
          5,
        );
        latenciesMs.push(at - exitMs);
      } catch {
        misses.push(await monitor.describeMiss(child, pid));
        latenciesMs.push(DEADLINE_MS);
      }
    } finally {
      // Killed now, waited for later: a scan of /proc for the group would take CPU from the monitor's process.
      killGroup(pid);
      groups.push(pid);
    }
  }
  return { variant, latenciesMs, missed: misses.length, misses, groups };
}
