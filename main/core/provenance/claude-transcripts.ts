import { join } from 'node:path';
import {
  closeUntrusted,
  entryKind,
  isNotFound,
  isRefusal,
  listUntrustedDir,
  openUntrustedFile,
  readRange,
  type NoteRefusal,
  type OpenedFile,
} from '../files/untrusted-file';
import { collectBashCalls, type TranscriptCall } from './claude-transcript-records';

/** How much of one transcript's tail is read at most: the calls that matter are the recent ones. */
export const TRANSCRIPT_TAIL_BYTES = 8 * 1024 * 1024;
const CHUNK_BYTES = 256 * 1024;
/** A transcript directory holding more project folders than this is not scanned for a session. */
const MAX_PROJECT_DIRS = 5000;

interface CachedTranscript {
  path: string;
  /** Bytes [start, end) of the file have been parsed; `carry` is the partial line just before start. */
  start: number;
  end: number;
  carry: Buffer;
  calls: Map<string, TranscriptCall>;
  results: Map<string, number>;
}

/**
 * Claude Code's transcripts, read from their end and cached per session: each call reads only what
 * was appended since the last one, and reaches further back only when a leftover is older than the
 * oldest call read, up to TRANSCRIPT_TAIL_BYTES. Read-only; nothing leaves the machine.
 */
export class ClaudeTranscripts {
  private readonly cache = new Map<string, CachedTranscript>();
  private readonly located = new Map<string, string | null>();

  /** `collect` reads one agent's records (Claude Code's by default; Codex's session files share the reading). */
  constructor(
    private readonly tailBytes = TRANSCRIPT_TAIL_BYTES,
    private readonly collect: typeof collectBashCalls = collectBashCalls,
  ) {}

  /** `<config dir>/projects/<cwd with every / replaced by ->/<session id>.jsonl`, or a scan for it. */
  locate(configDir: string, sessionId: string, cwd: string | null): string | null {
    if (!/^[\w.-]{1,128}$/.test(sessionId)) return null; // never a path out of the projects folder
    const key = `${configDir}\0${sessionId}`;
    const known = this.located.get(key);
    if (known) return known;
    const projects = join(configDir, 'projects');
    const file = `${sessionId}.jsonl`;
    const guesses = cwd ? [cwd.replace(/\//g, '-'), cwd.replace(/[^a-zA-Z0-9]/g, '-')] : [];
    let found: string | null = null;
    for (const dir of guesses)
      if (!found && isFile(join(projects, dir, file))) found = join(projects, dir, file);
    if (!found) {
      // The session may have started in another directory than the leftover's cwd.
      const dirs = listUntrustedDir(projects, MAX_PROJECT_DIRS);
      if (!isRefusal(dirs))
        for (const dir of dirs)
          if (!found && isFile(join(projects, dir, file))) found = join(projects, dir, file);
    }
    // A miss is not cached: the transcript appears with the session's first record.
    if (found) this.located.set(key, found);
    return found;
  }

  /**
   * The Bash calls in the transcript's tail, covering at least back to `since` where the budget allows.
   * `owner`: the agent's uid, whose transcript it must be. A transcript that is no longer a regular file of
   * its owner (swapped for a FIFO after it was found) gives no calls, and is looked for again next time.
   */
  bashCalls(
    path: string,
    since: number,
    { owner, note }: { owner?: number; note?: NoteRefusal } = {},
  ): Map<string, TranscriptCall> {
    const file = openUntrustedFile(path, { maxBytes: Infinity, owner });
    if (isRefusal(file)) {
      if (!isNotFound(file)) note?.(path, file);
      this.cache.delete(path);
      for (const [key, found] of this.located) if (found === path) this.located.delete(key);
      return new Map();
    }
    try {
      return this.readCalls(file, path, since);
    } finally {
      closeUntrusted(file);
    }
  }

  private readCalls(file: OpenedFile, path: string, since: number): Map<string, TranscriptCall> {
    const size = file.size;
    let entry = this.cache.get(path);
    if (entry && size < entry.end) entry = undefined; // rewritten or truncated: read again
    if (!entry || size - entry.end > this.tailBytes) {
      entry = { path, start: size, end: size, carry: Buffer.alloc(0), calls: new Map(), results: new Map() };
      this.cache.set(path, entry);
    }
    if (size > entry.end) this.readForward(file, entry, size);
    while (entry.start > 0 && entry.end - entry.start < this.tailBytes && oldestIssued(entry.calls) > since) {
      if (!this.readBackward(file, entry)) break;
    }
    return entry.calls;
  }

  private readForward(file: OpenedFile, entry: CachedTranscript, size: number): void {
    const bytes = readRange(file, entry.end, size);
    if (isRefusal(bytes)) return;
    const lastNewline = bytes.lastIndexOf(0x0a);
    if (lastNewline < 0) return; // a record still being written
    this.collect(bytes.subarray(0, lastNewline).toString('utf8').split('\n'), entry.calls, entry.results);
    entry.end += lastNewline + 1;
  }

  /** False when the file could not be read (an I/O error): what was read stands. */
  private readBackward(file: OpenedFile, entry: CachedTranscript): boolean {
    const from = Math.max(0, entry.start - CHUNK_BYTES);
    const range = readRange(file, from, entry.start);
    if (isRefusal(range)) return false;
    const bytes = Buffer.concat([range, entry.carry]);
    let firstLine = 0;
    if (from > 0) {
      const newline = bytes.indexOf(0x0a);
      firstLine = newline < 0 ? bytes.length : newline + 1;
    }
    entry.carry = Buffer.from(bytes.subarray(0, firstLine));
    entry.start = from;
    this.collect(bytes.subarray(firstLine).toString('utf8').split('\n'), entry.calls, entry.results);
    return true;
  }
}

function oldestIssued(calls: Map<string, TranscriptCall>): number {
  let oldest = Infinity;
  for (const c of calls.values()) if (c.issuedAt < oldest) oldest = c.issuedAt;
  return oldest;
}

/** Looked at, not opened or followed: the reading opens it again and checks what it opened. */
function isFile(path: string): boolean {
  return entryKind(path) === 'file';
}
