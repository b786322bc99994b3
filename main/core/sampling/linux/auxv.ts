import { readFileSync } from 'node:fs';

/** auxv(3) entry types: AT_PAGESZ and AT_CLKTCK, from <elf.h>. */
export const AT_PAGESZ = 6;
export const AT_CLKTCK = 17;

/**
 * One value from this process's ELF auxiliary vector (/proc/self/auxv: pairs of native unsigned
 * longs, type then value, ending with AT_NULL), or null when unreadable or absent. The kernel puts
 * the clock-tick rate and the page size there for every process, so reading them costs one small
 * file read instead of running `getconf` (two process spawns for every CLI start, hooks included).
 */
export function auxvValue(type: number, path = '/proc/self/auxv'): number | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return null;
  }
  // 64-bit kernels (the only ones Corral's Node builds run on) use 8-byte longs, little-endian on x64/arm64.
  if (process.arch !== 'x64' && process.arch !== 'arm64') return null;
  for (let off = 0; off + 16 <= bytes.length; off += 16) {
    const t = Number(bytes.readBigUInt64LE(off));
    if (t === 0) break;
    if (t === type) {
      const v = Number(bytes.readBigUInt64LE(off + 8));
      return Number.isSafeInteger(v) && v > 0 ? v : null;
    }
  }
  return null;
}
