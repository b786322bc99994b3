/** Fields of /proc/<pid>/stat that Corral uses. See proc(5). */
export interface StatFields {
  pid: number;
  name: string;
  state: string;
  ppid: number;
  pgid: number;
  sid: number;
  ttyNr: number;
  utimeTicks: number;
  stimeTicks: number;
  /**
   * Fields 16 and 17 (cutime, cstime): CPU time of its children that exited and that it waited for
   * (their own waited-for children included), added when wait returns. See proc_pid_stat(5), times(2).
   */
  childTicks: number;
  /** Field 20: how many threads the process has. */
  threads: number;
  startTicks: number;
  rssPages: number;
  /**
   * Field 38: the signal a process's parent gets when it dies; -1 marks a thread that is not its
   * process's leader (reachable as /proc/<tid> though not listed there). null when the line stops short.
   */
  exitSignal: number | null;
}

const OPEN_PAREN = 0x28;
const CLOSE_PAREN = 0x29;
const SPACE = 0x20;

/**
 * Parses the bytes of /proc/<pid>/stat. The name (comm) sits between the first '(' and the LAST ')':
 * it may itself hold spaces, parentheses and newlines, so no field split may start before that ')'.
 * Returns null for anything that does not have the shape proc(5) promises. `knownName` is this
 * process's name as last read: when the bytes still spell it, that string is returned as it is (the
 * monitor re-reads agents' processes every second, and almost none of them change name).
 */
export function parseStat(
  buf: Uint8Array,
  length: number = buf.length,
  knownName?: string,
): StatFields | null {
  const open = buf.indexOf(OPEN_PAREN);
  const close = buf.lastIndexOf(CLOSE_PAREN, length - 1);
  if (open <= 0 || close < open) return null;
  const pid = parseUint(buf, 0, open - 1);
  if (pid < 0) return null;
  const name =
    knownName !== undefined && spells(buf, open + 1, close, knownName)
      ? knownName
      : decodeName(buf.subarray(open + 1, close));

  // Fields after the name are single spaces apart: " S ppid pgrp session tty_nr ..."
  // Field numbering follows proc(5): 3 = state, 4 = ppid, ... 24 = rss, 38 = exit_signal.
  let pos = close + 2;
  if (pos >= length) return null;
  const state = String.fromCharCode(buf[pos] ?? 0x3f);
  pos += 2;
  const out: StatFields = {
    pid,
    name,
    state,
    ppid: 0,
    pgid: 0,
    sid: 0,
    ttyNr: 0,
    utimeTicks: 0,
    stimeTicks: 0,
    childTicks: 0,
    threads: 0,
    startTicks: 0,
    rssPages: 0,
    exitSignal: null,
  };
  let field = 4;
  for (; field <= 38 && pos < length; field++) {
    let end = pos;
    while (end < length && buf[end] !== SPACE && buf[end] !== 0x0a) end++;
    const n = parseInt64(buf, pos, end);
    if (Number.isNaN(n)) return null;
    pos = end + 1;
    if (field === 4) out.ppid = n;
    else if (field === 5) out.pgid = n;
    else if (field === 6) out.sid = n;
    else if (field === 7) out.ttyNr = n;
    else if (field === 14) out.utimeTicks = n;
    else if (field === 15) out.stimeTicks = n;
    else if (field === 16 || field === 17) out.childTicks += n;
    else if (field === 20) out.threads = n;
    else if (field === 22) out.startTicks = n;
    else if (field === 24) out.rssPages = n;
    else if (field === 38) out.exitSignal = n;
  }
  // Fields up to rss (24) are required; exit_signal (38) is absent from very old kernels' lines.
  return field > 24 ? out : null;
}

/** Field 3 of a stat line alone (the state letter, after the name's last ')'); null for a malformed line. */
export function statState(buf: Uint8Array, length: number = buf.length): string | null {
  const close = buf.lastIndexOf(CLOSE_PAREN, length - 1);
  return close > 0 && close + 2 < length ? String.fromCharCode(buf[close + 2] as number) : null;
}

/** Whether bytes [start, end) are exactly `text`, for a text of ASCII characters only. */
function spells(buf: Uint8Array, start: number, end: number, text: string): boolean {
  if (end - start !== text.length) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f || buf[start + i] !== c) return false;
  }
  return true;
}

function parseUint(buf: Uint8Array, start: number, end: number): number {
  if (end <= start) return -1;
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = (buf[i] as number) - 0x30;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

function parseInt64(buf: Uint8Array, start: number, end: number): number {
  if (end <= start) return NaN;
  let negative = false;
  let i = start;
  if (buf[i] === 0x2d) {
    negative = true;
    i++;
  }
  if (i >= end) return NaN;
  let n = 0;
  for (; i < end; i++) {
    const c = (buf[i] as number) - 0x30;
    if (c < 0 || c > 9) return NaN;
    n = n * 10 + c;
  }
  return negative ? -n : n;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes kernel-supplied bytes: UTF-8 when valid, otherwise invalid bytes become \xNN escapes. */
export function decodeName(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    return escapeInvalidUtf8(bytes);
  }
}

function escapeInvalidUtf8(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const len = utf8SequenceLength(bytes, i);
    if (len > 0) {
      out += utf8.decode(bytes.subarray(i, i + len));
      i += len;
    } else {
      out += `\\x${(bytes[i] as number).toString(16).padStart(2, '0')}`;
      i++;
    }
  }
  return out;
}

function utf8SequenceLength(b: Uint8Array, i: number): number {
  const c = b[i] as number;
  if (c < 0x80) return 1;
  const len = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
  if (len === 0 || i + len > b.length) return 0;
  for (let k = 1; k < len; k++) if (((b[i + k] as number) & 0xc0) !== 0x80) return 0;
  try {
    utf8.decode(b.subarray(i, i + len));
    return len;
  } catch {
    return 0;
  }
}

/** Name of a controlling terminal from tty_nr (major/minor encoding of proc(5)); null when none. */
export function ttyName(ttyNr: number): string | null {
  if (ttyNr === 0) return null;
  const major = (ttyNr >> 8) & 0xfff;
  const minor = (ttyNr & 0xff) | ((ttyNr >> 12) & 0xfff00);
  if (major >= 136 && major <= 143) return `pts/${(major - 136) * 256 + minor}`;
  if (major === 4) return minor < 64 ? `tty${minor}` : `ttyS${minor - 64}`;
  if (major === 5 && minor === 0) return 'tty';
  return `${major}:${minor}`;
}

/**
 * A process that exited and was not yet waited for: no memory, no CPU wanted. A leader that exited while
 * other threads run shows Z too, and is none (its threads still count in num_threads, field 20).
 */
export function isZombie(f: Pick<StatFields, 'state' | 'threads'>): boolean {
  return f.state === 'Z' && f.threads <= 1;
}
