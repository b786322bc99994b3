import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Monitor } from '../../main/core/monitor/monitor';
import type { BenchAgent } from '../lib/fake-agent-driver';
import { removeGroups } from '../lib/populations';
import { waitUntil } from '../lib/wait';

export interface LatencyVariant {
  name: string;
  /** Seconds the wrapper keeps running after it started its background child. */
  wrapperLivesSeconds: number;
}

export interface LatencyResult {
  variant: LatencyVariant;
  latenciesMs: number[];
  /** Trials whose orphan was not reported within the deadline (counted as the deadline in latenciesMs). */
  missed: number;
}

const DEADLINE_MS = 5000;

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
  let missed = 0;
  try {
    for (let n = 0; n < trials; n++) {
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
          const at = await waitUntil(`orphaned event for ${child}`, () => orphanedAt.get(child), DEADLINE_MS, 5);
          latenciesMs.push(at - exitMs);
        } catch {
          missed++;
          latenciesMs.push(DEADLINE_MS);
        }
      } finally {
        await removeGroups([pid]);
      }
    }
  } finally {
    off();
  }
  return { variant, latenciesMs, missed };
}
