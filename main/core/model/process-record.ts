// The record every layer passes around: one process as a sampler saw it. Data only: no I/O here.

import type { ProcessIds } from '../../../shared/model';

/** One process as a sampler saw it at one instant. */
export interface ProcessRecord extends ProcessIds {
  /**
   * Platform start stamp that, with the pid, identifies one process for its whole life:
   * clock ticks since boot on Linux, microseconds since epoch on macOS.
   */
  startKey: number;
  /** Absolute start time, ms since epoch. */
  startedAt: number;
  /** Cumulative user + system CPU time, ms; null when the kernel will not tell (another user's process on macOS). */
  cpuTimeMs: number | null;
  /**
   * Cumulative time it spent runnable but waiting for a CPU, ms (Linux: the thread-group leader's
   * schedstat run_delay; macOS: ri_runnable_time less user and system time). With cpuTimeMs it is how
   * long the process wanted a CPU, whatever share it got: what the runaway rule measures. Absent where
   * the platform keeps no such figure (Linux without scheduler statistics).
   */
  runQueueWaitMs?: number;
  /**
   * CPU time of its children that exited and were waited for by it (Linux: cutime + cstime; macOS:
   * ri_child_user_time + ri_child_system_time), ms; absent where the sampler could not read it.
   */
  childCpuTimeMs?: number;
  /** Resident set size; null when the kernel will not tell (another user's process on macOS). */
  rssBytes: number | null;
  /**
   * macOS only: the physical footprint (proc_pid_rusage ri_phys_footprint), the memory Activity Monitor
   * shows; absent where the platform has no such reading or the kernel refused it.
   */
  footprintBytes?: number;
  /**
   * How many threads it has, where the sampler read it (Linux): at most that many cores' worth of CPU time
   * accrues per second, which tells how long a busy reading over a long gap must have been running.
   */
  threads?: number;
  /** Executable name (comm), as the kernel reports it. */
  name: string;
  /** Full argv; empty when unreadable (kernel threads, zombies, another user's process on macOS). */
  argv: string[];
  tty: string | null;
  /** Agent environment markers found in the process's environment (only the keys asked for). */
  markers: Record<string, string>;
  /** False when the environment could not be read (permission, platform), so markers are unknown. */
  environReadable: boolean;
}
