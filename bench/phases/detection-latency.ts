import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Monitor } from '../../main/core/monitor/monitor';
import type { BenchAgent } from '../lib/fake-agent-driver';
import { killGroup } from '../lib/populations';
import { sleep, waitUntil } from '../lib/wait';

export interface LatencyVariant {
  name: string;
  /** Seconds the wrapper keeps running after it started its background child. */
  wrapperLivesSeconds: number;
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

const DEADLINE_MS = 5000;

/**
 * Trials start after a random pause of up to one poll interval: started right after the previous
 * detection, they would all land at the same phase of the monitor's timers and measure one point of it.
 */
const JITTER_MS = 1000;

/**
 * Per trial: the agent runs `sleep 600 & …` as a tool call; the wrapper writes `date +%s%N` as its
 * last act, and the latency runs from that stamp to the moment the monitor's `orphaned` event for the
 * left-behind sleep reaches a listener. Each trial's group is then removed by its PGID.
 */
export async function measureDetectionLatency(
  monitor: Monitor,
  agent: BenchAgent,
  dir: string,
  variant: LatencyVariant,
  trials: number,
): Promise<LatencyResult> {
  const orphanedAt = new Map<number, number>();
  const off = monitor.onEvent((e) => {
    if (e.type === 'orphaned' && !orphanedAt.has(e.pid)) orphanedAt.set(e.pid, Date.now());
  });
  const latenciesMs: number[] = [];
  const misses: Miss[] = [];
  const groups: number[] = [];
  try {
    for (let n = 0; n < trials; n++) {
      await sleep(Math.random() * JITTER_MS);
      const tag = `${variant.wrapperLivesSeconds}-${n}`;
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
            () => orphanedAt.get(child),
            DEADLINE_MS,
            5,
          );
          latenciesMs.push(at - exitMs);
        } catch {
          misses.push(describeMiss(monitor, child, pid));
          latenciesMs.push(DEADLINE_MS);
        }
      } finally {
        // Killed now, waited for later: a scan of /proc for the group would stall the monitor's loop.
        killGroup(pid);
        groups.push(pid);
      }
    }
  } finally {
    off();
  }
  return { variant, latenciesMs, missed: misses.length, misses, groups };
}

function describeMiss(monitor: Monitor, child: number, wrapper: number): Miss {
  let tracked: Miss['tracked'] = null;
  for (const p of monitor.trackedProcesses()) {
    if (p.record.pid !== child) continue;
    tracked = {
      ppid: p.record.ppid,
      pgid: p.record.pgid,
      state: p.record.state,
      attributed: p.attribution !== null,
      originalPpid: p.lineage?.originalPpid ?? null,
      orphanedAt: p.orphanedAt,
      exitedAt: p.exitedAt,
      firstSeenAt: p.firstSeenAt,
    };
  }
  return { child, wrapper, tracked, monitorErrors: { ...monitor.errors } };
}
