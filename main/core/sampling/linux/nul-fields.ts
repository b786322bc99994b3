import { decodeName } from './stat-parser';

/** Splits a NUL-separated /proc file (cmdline, environ) into strings; invalid UTF-8 is escaped. */
export function splitNul(buf: Uint8Array, length: number): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < length; i++) {
    if (buf[i] === 0) {
      out.push(decodeName(buf.subarray(start, i)));
      start = i + 1;
    }
  }
  if (start < length) out.push(decodeName(buf.subarray(start, length)));
  return out;
}

/**
 * argv from /proc/<pid>/cmdline. A process that set its title (node's `process.title`, as agents do)
 * leaves the rest of its old argv area NUL-filled, which reads as a trail of empty arguments: they
 * are dropped (a real trailing empty argument is dropped with them).
 */
export function argvFromCmdline(buf: Uint8Array, length: number): string[] {
  const argv = splitNul(buf, length);
  let end = argv.length;
  // argv[0] stays even when empty: a process may be exec'd with an empty argv[0].
  while (end > 1 && argv[end - 1] === '') end--;
  return end === argv.length ? argv : argv.slice(0, end);
}

/** Picks only the wanted keys out of a NUL-separated environ buffer. */
export function pickEnv(buf: Buffer, length: number, keys: ReadonlySet<string>): Record<string, string> {
  const found: Record<string, string> = {};
  if (keys.size === 0) return found;
  let start = 0;
  for (let i = 0; i <= length; i++) {
    if (i === length || buf[i] === 0) {
      if (i > start) {
        const eq = buf.indexOf(0x3d, start);
        if (eq > start && eq < i) {
          const key = buf.toString('latin1', start, eq);
          if (keys.has(key)) found[key] = decodeName(buf.subarray(eq + 1, i));
        }
      }
      start = i + 1;
    }
  }
  return found;
}
