import { readdirSync } from 'node:fs';

/** The pids under a procfs root: its entries that start with a digit (the rest are `self`, `net`, …). */
export function listProcPids(procRoot: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync(procRoot)) {
    const c = name.charCodeAt(0);
    if (c >= 0x30 && c <= 0x39) pids.push(Number(name));
  }
  return pids;
}
