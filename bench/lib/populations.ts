import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { waitUntil } from './wait';

/** A minimal, marker-free environment: the bench's populations must not look like an agent's. */
export function benchEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: process.env.HOME ?? '/root', LC_ALL: 'C', ...extra };
}

/** Every process group the bench created; each is removed by its PGID, never by name. */
const created = new Set<number>();

export function trackGroup(pgid: number): void {
  if (pgid > 1) created.add(pgid);
}

export function createdGroups(): number[] {
  return [...created];
}

export function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // ESRCH: already empty.
  }
}

/** Live (non-zombie) pids per PGID, for the given PGIDs, from one pass over /proc. */
export function countMembers(pgids: ReadonlySet<number>): Map<number, number> {
  const counts = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let text: string;
    try {
      text = readFileSync(`/proc/${name}/stat`, 'latin1');
    } catch {
      continue;
    }
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const pgid = Number(rest[2]);
    if (rest[0] !== 'Z' && pgids.has(pgid)) counts.set(pgid, (counts.get(pgid) ?? 0) + 1);
  }
  return counts;
}

export function liveCount(pgids: Iterable<number>): number {
  let n = 0;
  for (const c of countMembers(new Set(pgids)).values()) n += c;
  return n;
}

/** SIGKILLs the given groups (default: all the bench made) and waits until they are empty. */
export async function removeGroups(pgids: Iterable<number> = created, timeoutMs = 15_000): Promise<void> {
  const list = [...pgids];
  for (const pgid of list) killGroup(pgid);
  await waitUntil(`groups ${list.join(',')} to empty`, () => liveCount(list) === 0, timeoutMs);
  for (const pgid of list) created.delete(pgid);
}

/** Synchronous last resort for exit paths (signal handlers): SIGKILL every group, no waiting. */
export function killAllCreatedSync(): void {
  for (const pgid of created) killGroup(pgid);
}

export interface Group {
  pgid: number;
  size: number;
}

/**
 * One process group of exactly `size` processes: a bash leader (own session and group) that forks
 * size-1 `sleep 3600` children, disowned so bash's job table stays small, then becomes a sleep itself.
 */
export function spawnGroup(size: number, { ignoreTerm = false }: { ignoreTerm?: boolean } = {}): Group {
  const script = [
    ignoreTerm ? "trap '' TERM" : '',
    `for ((i=0;i<${size - 1};i++)); do sleep 3600 & disown; done`,
    'exec sleep 3600',
  ]
    .filter(Boolean)
    .join('\n');
  const child = spawn('/bin/bash', ['-c', script], { detached: true, stdio: 'ignore', env: benchEnv() });
  if (child.pid === undefined) throw new Error('could not spawn a population group');
  child.unref();
  trackGroup(child.pid);
  return { pgid: child.pid, size };
}

/** A population of `total` processes split into groups of at most `perGroup`, ready when all are alive. */
export async function spawnPopulation(
  total: number,
  { perGroup = 500, ignoreTerm = false, timeoutMs = 60_000 } = {},
): Promise<Group[]> {
  const groups: Group[] = [];
  for (let left = total; left > 0; left -= perGroup)
    groups.push(spawnGroup(Math.min(perGroup, left), { ignoreTerm }));
  const pgids = groups.map((g) => g.pgid);
  await waitUntil(
    `${total} processes in ${groups.length} groups`,
    () => liveCount(pgids) === total,
    timeoutMs,
    50,
  );
  return groups;
}

export function procCount(): number {
  return readdirSync('/proc').filter((n) => /^\d+$/.test(n)).length;
}
