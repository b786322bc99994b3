import { readFileSync } from 'node:fs';
import koffi from 'koffi';

/** One mapping of /proc/<pid>/smaps: its address range, permissions, path and the sizes (kB) we read. */
export interface SmapsMapping {
  start: bigint;
  end: bigint;
  perms: string;
  path: string;
  rssKb: number;
  anonymousKb: number;
}

/**
 * Parsed with string operations, no regular expression: V8 keeps the last match's subject (for
 * RegExp.$1 and the like), and a line of smaps is a slice of the whole text, which a long-lived command
 * would then carry (120 kB for `corral watch`) until its next match.
 */
export function parseSmaps(text: string): SmapsMapping[] {
  const mappings: SmapsMapping[] = [];
  let current: SmapsMapping | null = null;
  for (const line of text.split('\n')) {
    const header = parseHeader(line);
    if (header) {
      current = header;
      mappings.push(current);
    } else if (current && line.startsWith('Rss:')) current.rssKb = parseInt(line.slice(4), 10);
    else if (current && line.startsWith('Anonymous:')) current.anonymousKb = parseInt(line.slice(10), 10);
  }
  return mappings;
}

/** `start-end perms offset dev inode [path]`, or null for a field line (`Rss:   12 kB`). */
function parseHeader(line: string): SmapsMapping | null {
  const fields = line.split(' ').filter((f) => f !== '');
  const range = fields[0]?.split('-');
  if (fields.length < 5 || range?.length !== 2 || fields[1]!.length !== 4) return null;
  const [start, end] = range as [string, string];
  if (!isHex(start) || !isHex(end)) return null;
  return {
    start: BigInt(`0x${start}`),
    end: BigInt(`0x${end}`),
    perms: fields[1]!,
    path: fields.slice(5).join(' '),
    rssKb: 0,
    anonymousKb: 0,
  };
}

function isHex(text: string): boolean {
  if (text === '') return false;
  for (const c of text) if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

/**
 * The mappings whose resident pages are all the file's own, unchanged: private, never writable, of a
 * regular file (the node binary's code and read-only data, shared libraries' the same), with no
 * anonymous (copy-on-write) page. Dropping such a page loses nothing: touched again, it is read back
 * from the page cache, as it was the first time. A mapping that is or was written (.data, .bss, and
 * RELRO, which the loader wrote before making it read-only: Anonymous above 0) is never chosen.
 */
export function cleanFileMappings(mappings: readonly SmapsMapping[]): SmapsMapping[] {
  return mappings.filter(
    (m) =>
      m.perms[0] === 'r' &&
      m.perms[1] === '-' &&
      m.perms[3] === 'p' &&
      m.path.startsWith('/') &&
      !m.path.startsWith('/dev/') &&
      !m.path.startsWith('/memfd:') &&
      m.anonymousKb === 0 &&
      m.rssKb > 0,
  );
}

const MADV_DONTNEED = 4;
type Madvise = (addr: bigint, length: number, advice: number) => number;

function loadMadvise(): Madvise | null {
  try {
    return koffi.load('libc.so.6').func('int madvise(uintptr_t addr, size_t length, int advice)') as Madvise;
  } catch {
    return null;
  }
}

export interface Released {
  mappings: number;
  /** What those mappings held resident before: the most this can have given back. */
  residentKb: number;
}

/**
 * Linux: lets go of this process's clean file pages (cleanFileMappings), so that its resident set holds
 * the code it runs from now on rather than everything start-up touched once (module loading, option
 * parsing, the first sweep: about 25 MB of Node's own binary for `corral watch`). The pages stay in
 * the page cache; what runs again faults back in without reading the disk. Null where it cannot
 * (not Linux, no koffi, no /proc).
 */
export function releaseCleanFilePages(): Released | null {
  if (process.platform !== 'linux') return null;
  const madvise = loadMadvise();
  if (!madvise) return null;
  let text: string;
  try {
    text = readFileSync('/proc/self/smaps', 'latin1');
  } catch {
    return null;
  }
  const released: Released = { mappings: 0, residentKb: 0 };
  for (const m of cleanFileMappings(parseSmaps(text))) {
    if (madvise(m.start, Number(m.end - m.start), MADV_DONTNEED) !== 0) continue;
    released.mappings++;
    released.residentKb += m.rssKb;
  }
  return released;
}
