import type { ProcessRecord } from '../core/model/process-record';
import type { HookSampler } from '../core/sampling/hook-sampler';

/** Beyond this many pids probed downwards, listing the whole table is cheaper. */
const MAX_PROBES = 20_000;
const BATCH = 64;

/**
 * The processes started at or after `startKey` (clock ticks since boot), for a hook answered without a
 * before-tool record: the kernel hands out pids in increasing order until it wraps at pid_max, so
 * reading downwards from the last pid allocated, the first live process started before `startKey`
 * proves every lower pid older. Only the pids allocated since the call began are read (plus the holes
 * exited processes left), never the whole table, unless that many were allocated.
 *
 * `floor`: a value of the pid counter read before the call began (PidCounterReadings), when one is
 * known: every pid down to it is older than the call, so the walk stops there at the latest, even when
 * no older process is alive above it (the holes a tool call's short-lived children leave).
 */
export function recordsSinceStart(
  sampler: HookSampler,
  startKey: number,
  pidMax: number,
  floor: number | null = null,
): ProcessRecord[] {
  const last = sampler.newPidsSince?.(null).cursor ?? -1;
  if (last <= 0) return sampler.sampleSome(sampler.listPids()).filter((r) => r.startKey >= startKey);
  // Walking down from `last`, the pid the walk ends before: the floor, or once round back to `last`.
  const end = floor ?? last;
  if (floor === last) return [];
  if (sampler.startKeyOf)
    return walkStarts(sampler, sampler.startKeyOf.bind(sampler), startKey, last, end, pidMax);
  const out: ProcessRecord[] = [];
  let pid = last;
  for (let probed = 0; probed < MAX_PROBES;) {
    const batch: number[] = [];
    for (let i = 0; i < BATCH && probed < MAX_PROBES; i++, probed++) {
      batch.push(pid);
      pid = pid > 1 ? pid - 1 : pidMax - 1;
      if (pid === end) break;
    }
    // Highest first, so the first older process ends the walk.
    const byPid = new Map(sampler.sampleSome(batch).map((r) => [r.pid, r]));
    for (const p of batch) {
      const r = byPid.get(p);
      if (!r) continue;
      if (r.startKey < startKey) return out;
      out.push(r);
    }
    if (pid === end) return out;
  }
  return sampler.sampleSome(sampler.listPids()).filter((r) => r.startKey >= startKey);
}

/**
 * A call's processes: the pids allocated since its before-tool record's counter, while the counter has
 * not wrapped past it; else those started at or after `startKey` (recordsSinceStart), or the whole table
 * where the pid counter cannot be read (`pidMax` null).
 */
export function callRecords(
  sampler: HookSampler,
  pidCursor: number | null | undefined,
  startKey: number,
  pidMax: number | null,
  floor: number | null = null,
): ProcessRecord[] {
  const fresh = pidCursor != null && sampler.newPidsSince?.(pidCursor).pids;
  if (fresh) return sampler.sampleSome(fresh);
  if (pidMax === null) return sampler.sampleSome(sampler.listPids());
  return recordsSinceStart(sampler, startKey, pidMax, floor);
}

/**
 * recordsSinceStart with a stat-only look per pid: only the processes of the window are read whole
 * (their command line and environment), and the walk reads nothing below the first older process.
 */
function walkStarts(
  sampler: HookSampler,
  startKeyOf: (pid: number) => number | null,
  startKey: number,
  last: number,
  end: number,
  pidMax: number,
): ProcessRecord[] {
  const window: number[] = [];
  for (let pid = last, probed = 0; ; probed++) {
    if (probed === MAX_PROBES)
      return sampler.sampleSome(sampler.listPids()).filter((r) => r.startKey >= startKey);
    const started = startKeyOf(pid);
    if (started !== null) {
      if (started < startKey) break;
      window.push(pid);
    }
    pid = pid > 1 ? pid - 1 : pidMax - 1;
    if (pid === end) break;
  }
  // A pid freed and taken again since its stat was read is another process: kept only if it is new too.
  return sampler.sampleSome(window).filter((r) => r.startKey >= startKey);
}
