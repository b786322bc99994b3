import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { Monitor } from '../../main/core/monitor/monitor';

/** What a group's births looked like to Corral over a run (docs/spawn-storms.md records these). */
export interface SpawnPeaks {
  /** Highest rate the spawn-storm rule read (births a minute over its 10 s window). */
  peakPerMinute10s: number;
  /** The same for the most started command line. */
  peakRepeatsPerMinute10s: number;
  /** The same for the busiest shell loop not paced by sleep (what the rule reads as repeats). */
  peakLoopPerMinute10s: number;
  /** Most births within any 60 s. */
  peakBirthsIn60s: number;
  /** Most live members at once. */
  peakMembers: number;
  /** Births counted in all, and how many of them exited before they could be read. */
  births: number;
  unseenBirths: number;
  /** Pids the kernel handed out meanwhile, to anyone (threads too): the machine's own churn. */
  pidsAllocated: number;
  seconds: number;
  loadAverage: [number, number, number];
}

/** The last pid the kernel handed out in this PID namespace. */
export const lastPid = (): number => Number(readFileSync('/proc/loadavg', 'latin1').trim().split(' ').pop());

/**
 * Reads the group's birth window every 250 ms until stopped; returns the peaks. `firstPid`, read before
 * the group was started, counts its first births among the pids allocated (they come before this is
 * called: the wrapper forks while the caller still waits for its pid).
 */
export function observeSpawns(monitor: Monitor, pgid: number, firstPid = lastPid()): { stop(): SpawnPeaks } {
  const startedAt = Date.now();
  const peaks = {
    peakPerMinute10s: 0,
    peakRepeatsPerMinute10s: 0,
    peakLoopPerMinute10s: 0,
    peakBirthsIn60s: 0,
    peakMembers: 0,
    births: 0,
    unseenBirths: 0,
  };
  const look = (): void => {
    const group = monitor.liveGroup(pgid);
    if (!group) return;
    const now = Date.now();
    peaks.peakMembers = Math.max(peaks.peakMembers, group.live.size);
    const window = group.spawns?.window;
    if (!window) return;
    peaks.peakPerMinute10s = Math.max(peaks.peakPerMinute10s, window.perMinute(now, 10_000));
    peaks.peakRepeatsPerMinute10s = Math.max(
      peaks.peakRepeatsPerMinute10s,
      window.topCommandPerMinute(now, 10_000),
    );
    peaks.peakLoopPerMinute10s = Math.max(peaks.peakLoopPerMinute10s, window.topLoopPerMinute(now, 10_000));
    peaks.peakBirthsIn60s = Math.max(peaks.peakBirthsIn60s, window.countWithin(now, 60_000));
    peaks.births = window.total;
    peaks.unseenBirths = window.unseen;
  };
  const timer = setInterval(look, 250);
  return {
    stop: () => {
      look();
      clearInterval(timer);
      const last = lastPid();
      // Past pid_max the counter starts again near the bottom (above the kernel's reserved 300 pids);
      // counting from 0 over-counts by at most those, which a ceiling on births can afford.
      const pidMax = Number(readFileSync('/proc/sys/kernel/pid_max', 'latin1'));
      const pidsAllocated = last >= firstPid ? last - firstPid : pidMax - firstPid + last;
      const seconds = Math.round((Date.now() - startedAt) / 100) / 10;
      return {
        ...peaks,
        pidsAllocated,
        seconds,
        loadAverage: loadavg().map((n) => Math.round(n * 10) / 10) as [number, number, number],
      };
    },
  };
}
