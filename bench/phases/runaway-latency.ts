import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import type { BenchAgent } from '../lib/fake-agent-driver';
import { startBusyNeighbour } from '../lib/busy-neighbour';
import { killGroup } from '../lib/populations';
import { waitUntil } from '../lib/wait';
import type { DetectionMonitor } from './detection-latency';

export interface RunawayLatency {
  neighboursPerCore: number;
  latenciesMs: number[];
  /** Trials whose loop was not flagged within the deadline (counted as the deadline). */
  missed: number;
  /** The loop's share of a core over each trial (its run time over its run + run-queue wait). */
  shares: number[];
  groups: number[];
}

/** The default window (30 s) plus the quiet poll (2 s), and as much again to give up. */
export const RUNAWAY_TARGET_MS =
  DEFAULT_SETTINGS.runaway.windowSeconds * 1000 + (DEFAULT_SETTINGS.quietPollIntervalMs ?? 2000);
const DEADLINE_MS = 2 * RUNAWAY_TARGET_MS;

/**
 * Per trial: beside `neighboursPerCore` busy loops per core of another program (each a process group of
 * its own, no agent's markers), the agent leaks the seed's loop, `until false; do :; done &`, from a tool
 * call whose wrapper exits at once; the time runs from the wrapper's `date +%s%N` just before the loop to
 * the monitor's `runaway` event for it. Default settings: 80 % of a core over 30 s. Each trial's group is
 * SIGKILLed by its PGID once flagged; the neighbours by theirs after the trials.
 */
export async function measureRunawayFlag(
  monitor: DetectionMonitor,
  agent: BenchAgent,
  dir: string,
  neighboursPerCore: number,
  trials: number,
): Promise<RunawayLatency> {
  const latenciesMs: number[] = [];
  const shares: number[] = [];
  const groups: number[] = [];
  let missed = 0;
  const neighbours = startBusyNeighbour(neighboursPerCore);
  try {
    for (let n = 0; n < trials; n++) {
      const tag = `runaway-${neighboursPerCore}-${n}`;
      const { id, pid } = await agent.toolCall(
        `date +%s%N > "$DIR/start-${tag}"; until false; do :; done 2>/dev/null & echo $! > "$DIR/loop-${tag}"`,
      );
      try {
        await agent.exited(id);
        const loop = Number(readFileSync(join(dir, `loop-${tag}`), 'utf8'));
        const startMs = Number(BigInt(readFileSync(join(dir, `start-${tag}`), 'utf8').trim()) / 1000n) / 1000;
        try {
          const at = await waitUntil(
            `runaway event for ${loop}`,
            () => monitor.runawayAt(loop),
            DEADLINE_MS,
            50,
          );
          latenciesMs.push(at - startMs);
        } catch {
          missed++;
          latenciesMs.push(DEADLINE_MS);
        }
        const [run, wait] = readFileSync(`/proc/${loop}/schedstat`, 'latin1').trim().split(' ').map(Number);
        shares.push(run! / (run! + wait!));
      } finally {
        killGroup(pid);
        groups.push(pid);
      }
    }
  } finally {
    neighbours.stop();
  }
  return { neighboursPerCore, latenciesMs, missed, shares, groups };
}
