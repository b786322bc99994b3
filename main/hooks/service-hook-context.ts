import { AgentMatcher } from '../core/analysis/agent-matcher';
import { BUILTIN_SIGNATURES } from '../core/analysis/signatures';
import { HOOK_MARKER_KEYS } from '../core/hooks-setup/hook-agents';
import { serviceHookReads } from '../core/sampling/service-hook-reads';
import type { PidCounterFeed } from '../core/sampling/pid-counter-feed';
import type { ServiceHookContext } from './hook-answer';
import type { KnownGroupId } from './leftover-note';
import { PidCounterReadings } from './pid-counter-readings';

/** How long a reading of the pid counter may serve as a floor (see PidCounterReadings). */
const PID_READING_MAX_AGE_MS = 30_000;

export interface ServiceHookWiring {
  /** The pid counter as the monitor in this process and thread reads it every poll (create-service.ts). */
  monitorReadings?: PidCounterFeed;
  /** /proc/uptime in milliseconds (a seam for tests: a clock set back makes earlier answers old). */
  uptimeMs?: () => number;
  /** The ids the monitor in this process and thread gave the groups it follows (Monitor.knownGroupId). */
  knownGroupId?: KnownGroupId;
}

/**
 * The service's context for answering hooks on Linux: the hook's own one-shot /proc reader (records
 * exactly as the one-shot hook reads them) and the kernel's clock in start-time ticks (/proc/uptime
 * counts boot time, as /proc/<pid>/stat's starttime does). Each answer also notes the pid counter,
 * read just before that clock, for later answers' walks; the monitor's readings of it serve them too.
 * Elsewhere null: the hook runs one-shot.
 */
export function serviceHookContextFactory(
  dataDir: string,
  procRoot = '/proc',
  wiring: ServiceHookWiring = {},
): (() => ServiceHookContext) | null {
  if (process.platform !== 'linux') return null;
  const reads = serviceHookReads(HOOK_MARKER_KEYS, procRoot);
  const { sampler, tickMs, pidMax, tcpPorts } = reads;
  const matcher = new AgentMatcher(BUILTIN_SIGNATURES);
  const isAgent: ServiceHookContext['isAgent'] = (r) => matcher.agentOf(r) !== null;
  const lastAnswered = new Map<string, number>();
  const feed = wiring.monitorReadings;
  const pidReadings = new PidCounterReadings(PID_READING_MAX_AGE_MS / tickMs, feed ? { feed, tickMs } : null);
  const uptimeMs = wiring.uptimeMs ?? reads.uptimeMs;
  const readTicks = (): number => Math.floor(uptimeMs() / tickMs);
  // The counter first, then the clock: every pid at or below the counter was handed out by that tick.
  // The monitor's clock between the two places its readings on the tick clock (PidCounterReadings).
  const noteReading = (): number => {
    const counter = sampler.newPidsSince(null).cursor;
    const monoMs = feed?.now();
    const ticks = readTicks();
    pidReadings.note(counter, ticks, monoMs);
    return ticks;
  };
  noteReading();
  return () => {
    const nowTicks = noteReading();
    return {
      dataDir,
      sampler,
      nowTicks,
      tickMs,
      pidMax,
      now: Date.now(),
      isAgent,
      lastAnswered,
      pidReadings,
      tcpPorts,
      knownGroupId: wiring.knownGroupId,
    };
  };
}
