import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PolicyJournalQuery } from '../../../shared/contract';
import type { Incident, MonitorEvent } from '../../../shared/model';
import { IncidentTable, type IncidentQuery } from './incident-table';
import { openOnDisk, whyUnwritable } from './open-on-disk';
import { ensureOwnDataDir } from './own-data-dir';
import { describeError, isCallerError } from './sqlite-errors';
import type { StopRequestInbox } from './stop-requests';
import { takeWriterLock } from './writer-lock';

import { MAX_JOURNAL_ENTRIES } from './policy-journal-table';

export type { IncidentQuery } from './incident-table';

export const INCIDENTS_FILE = 'incidents.db';
export const DEFAULT_MAX_INCIDENTS = 10_000;
const DEFAULT_DISK_RETRY_MS = 30_000;
const DEFAULT_TAKEOVER_RETRY_MS = 1_000;

export interface IncidentStoreOptions {
  /** Keep at most this many incidents; the oldest closed ones are rotated out. Open ones are kept. */
  maxIncidents?: number;
  /** While kept in memory, how often to try the disk again (a full disk may free up). */
  diskRetryMs?: number;
  now?: () => number;
  /**
   * `auto` (a running monitor): the one writer if no other Corral holds the data directory, else a
   * reader that says so. `reader` (a one-shot command): reads only, never takes the lock or migrates.
   */
  role?: 'auto' | 'reader';
  /** While another Corral writes, how often to try to take its place (its lock is freed when it dies). */
  takeoverRetryMs?: number;
  /** Reads the stop requests left in this directory while this store is the writer (create-service.ts). */
  stopRequests?: Pick<StopRequestInbox, 'watch'>;
}

/**
 * The persisted incident history: one SQLite file in WAL mode (node:sqlite or libsql), one transaction per `upsert`.
 * It never throws on storage trouble: when the disk cannot be used it keeps incidents in memory and
 * says so in `problem`, and `lastWriteDurable` tells whether the last write reached the disk.
 */
export class IncidentStore {
  readonly file: string;
  private table: IncidentTable;
  /** A damaged file was moved aside this session; worth telling the user even once all is well. */
  private recovered: string | null = null;
  /** Why incidents are in memory right now; null while on disk. */
  private unavailable: string | null = null;
  private durable = false;
  private lastDiskAttempt: number;
  private closed = false;
  private readonly maxIncidents: number;
  private readonly diskRetryMs: number;
  private readonly now: () => number;
  /** Why this store only reads (another Corral writes); null for the writer. */
  private readOnlyWhy: string | null = null;
  /** The writer this reader waits to succeed (its pid when known); null when it never will. */
  private waitingOn: { holderPid: number | null } | null = null;
  private releaseLock: () => void = () => {};
  private readonly stopRequests: Pick<StopRequestInbox, 'watch'> | undefined;
  private retryTimer: NodeJS.Timeout | null = null;
  private takeoverTimer: NodeJS.Timeout | null = null;
  private readonly takeoverListeners = new Set<(notice: string) => void>();
  private readonly problemListeners = new Set<(problem: string | null) => void>();
  private reportedProblem: string | null = null;

  static open(dir: string, options: IncidentStoreOptions = {}): IncidentStore {
    return new IncidentStore(dir, options);
  }

  private constructor(
    readonly dir: string,
    options: IncidentStoreOptions,
  ) {
    this.file = join(dir, INCIDENTS_FILE);
    this.maxIncidents = Math.max(1, Math.floor(options.maxIncidents ?? DEFAULT_MAX_INCIDENTS));
    this.diskRetryMs = options.diskRetryMs ?? DEFAULT_DISK_RETRY_MS;
    this.now = options.now ?? Date.now;
    this.stopRequests = options.stopRequests;
    this.lastDiskAttempt = this.now();
    let reader = options.role === 'reader';
    if (!reader && existsOrCreatable(dir)) {
      const lock = takeWriterLock(dir);
      if (lock.role === 'reader') {
        this.readOnlyWhy = lock.why;
        this.waitingOn = { holderPid: lock.holderPid };
        reader = true;
      } else this.holdLock(lock.release);
    }
    this.table = this.openTable(reader);
    this.reportedProblem = this.problem;
    if (this.waitingOn) {
      this.takeoverTimer = setInterval(
        () => this.tryTakeOver(),
        options.takeoverRetryMs ?? DEFAULT_TAKEOVER_RETRY_MS,
      );
      this.takeoverTimer.unref();
    }
  }

  /** Why this store only reads (another Corral writes); null for the writer. */
  get readOnly(): string | null {
    return this.readOnlyWhy;
  }

  /**
   * Called once if this store, a reader because another Corral wrote, becomes the writer: the other one
   * ended (however it ended, the kernel freed its lock), and from now on this one records incidents.
   */
  onTakeOver(listener: (notice: string) => void): () => void {
    this.takeoverListeners.add(listener);
    return () => this.takeoverListeners.delete(listener);
  }

  private holdLock(release: () => void): void {
    const unwatch = this.stopRequests?.watch(this.dir) ?? (() => {});
    this.releaseLock = () => {
      unwatch();
      release();
    };
  }

  private openTable(reader: boolean): IncidentTable {
    const opening = openOnDisk(this.dir, this.file, this.lastDiskAttempt, { reader });
    if (opening.table) {
      if (opening.recovered) this.recovered = opening.recovered;
      return opening.table;
    }
    this.unavailable = opening.problem;
    const table = IncidentTable.inMemory();
    table.write(readableHistory(this.file), this.maxIncidents);
    this.scheduleRetry();
    return table;
  }

  /** A reader tries the writer's lock again; once it holds it, it reopens the file as the writer. */
  private tryTakeOver(): void {
    const waitingOn = this.waitingOn;
    if (this.closed || !waitingOn) return;
    const lock = takeWriterLock(this.dir);
    if (lock.role === 'reader') return;
    if (this.takeoverTimer) clearInterval(this.takeoverTimer);
    this.takeoverTimer = null;
    this.waitingOn = null;
    this.holdLock(lock.release);
    this.readOnlyWhy = null;
    this.table.close();
    this.lastDiskAttempt = this.now();
    this.table = this.openTable(false);
    const who = waitingOn.holderPid ? ` (pid ${waitingOn.holderPid})` : '';
    const notice = `the Corral that recorded incidents in ${this.dir}${who} is gone; this one records them now`;
    for (const listener of this.takeoverListeners) listener(notice);
    // The read-only note gives way to this notice, not to a "saved again" change; a problem of the
    // writer's own (a full disk) is still told.
    if (this.problem === null) this.reportedProblem = null;
    else this.reportIfChanged();
  }

  /** Called whenever `problem` changes (appears, changes, or clears), once per change. */
  onProblemChange(listener: (problem: string | null) => void): () => void {
    this.problemListeners.add(listener);
    return () => this.problemListeners.delete(listener);
  }

  /** What is wrong with storage, in words for the user; null when all is well. */
  get problem(): string | null {
    const memory =
      this.unavailable &&
      `Incidents are kept in memory only and will be lost when Corral quits: ${this.unavailable}`;
    const skipped = this.table.skipped.count;
    const bad =
      skipped > 0 &&
      `${skipped} incident row${skipped === 1 ? '' : 's'} in ${this.file} could not be read and ${skipped === 1 ? 'was' : 'were'} skipped (${this.table.skipped.problems.join('; ')}).`;
    const journalSkipped = this.table.journal.skipped.count;
    const badJournal =
      journalSkipped > 0 &&
      `${journalSkipped} policy journal row${journalSkipped === 1 ? '' : 's'} in ${this.file} could not be read and ${journalSkipped === 1 ? 'was' : 'were'} skipped (${this.table.journal.skipped.problems.join('; ')}).`;
    const parts = [
      this.readOnly && `Read-only: ${this.readOnly}.`,
      this.recovered,
      memory,
      bad,
      badJournal,
    ].filter((p): p is string => Boolean(p));
    return parts.length > 0 ? parts.join(' ') : null;
  }

  /** True when the last `upsert` was committed to the file on disk. */
  get lastWriteDurable(): boolean {
    return this.durable;
  }

  get onDisk(): boolean {
    return this.table.path !== null;
  }

  /**
   * Saves a tick's new and changed incidents in one transaction. Returns `lastWriteDurable`: true only
   * after the commit to disk succeeded.
   */
  upsert(incidents: readonly Incident[]): boolean {
    this.assertOpen();
    // Another Corral records incidents here: it is the one that makes them durable.
    if (this.readOnly) return true;
    if (!this.onDisk) this.tryDiskAgain();
    try {
      this.table.write(incidents, this.maxIncidents);
      this.durable = this.onDisk;
    } catch (err) {
      if (!this.onDisk || isCallerError(err)) throw err;
      this.fallBackToMemory(err);
      this.table.write(incidents, this.maxIncidents);
      this.durable = false;
    }
    this.reportIfChanged();
    return this.durable;
  }

  /**
   * Records policy journal entries (`policy-matched`, `stopped-by-policy`); returns the ones that were
   * not recorded before (one per type, group and policy). A reader records nothing and returns them all.
   */
  addJournal(events: readonly MonitorEvent[]): MonitorEvent[] {
    this.assertOpen();
    if (this.readOnly || events.length === 0) return [...events];
    if (!this.onDisk) this.tryDiskAgain();
    try {
      return this.table.addJournal(events);
    } catch (err) {
      if (!this.onDisk || isCallerError(err)) throw err;
      this.fallBackToMemory(err);
      return this.table.addJournal(events);
    } finally {
      this.reportIfChanged();
    }
  }

  /** Journal entries, newest first. */
  journal(query: PolicyJournalQuery = {}): MonitorEvent[] {
    return this.read((table) => table.journal.list(query));
  }

  /** Whether a policy's match on this group is already in the journal (it is not recorded again). */
  journalHas(groupId: string, policy: string): boolean {
    this.assertOpen();
    try {
      return this.table.journal.has('policy-matched', groupId, policy);
    } catch {
      return false;
    }
  }

  /** Most recent first. */
  list(query: IncidentQuery = {}): Incident[] {
    return this.read((table) => table.list(query));
  }

  /** Incidents still open, oldest first: what a restarted monitor picks up again. */
  openIncidents(): Incident[] {
    return this.read((table) => table.openIncidents());
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.retryTimer) clearInterval(this.retryTimer);
    if (this.takeoverTimer) clearInterval(this.takeoverTimer);
    this.table.close();
    this.releaseLock();
  }

  private read<T>(query: (table: IncidentTable) => T): T {
    this.assertOpen();
    try {
      return query(this.table);
    } catch (err) {
      if (!this.onDisk || this.readOnly) throw err;
      this.fallBackToMemory(err);
      return query(this.table);
    } finally {
      this.reportIfChanged();
    }
  }

  private reportIfChanged(): void {
    const problem = this.problem;
    if (problem === this.reportedProblem) return;
    this.reportedProblem = problem;
    for (const listener of this.problemListeners) listener(problem);
  }

  /** While incidents are only in memory, the disk is tried again on a timer, not only on the next write. */
  private scheduleRetry(): void {
    if (this.retryTimer || this.readOnly) return;
    this.retryTimer = setInterval(() => {
      if (this.closed || this.onDisk) return;
      this.lastDiskAttempt = -Infinity;
      this.tryDiskAgain();
      if (this.onDisk && this.retryTimer) {
        clearInterval(this.retryTimer);
        this.retryTimer = null;
      }
      this.reportIfChanged();
    }, this.diskRetryMs);
    this.retryTimer.unref();
  }

  private fallBackToMemory(err: unknown): void {
    const file = this.table;
    let rows: Incident[];
    let journal: MonitorEvent[] = [];
    try {
      rows = file.all();
      journal = file.journal.list({ limit: MAX_JOURNAL_ENTRIES });
    } catch {
      rows = readableHistory(this.file);
    }
    file.close();
    const memory = IncidentTable.inMemory();
    memory.write(rows, this.maxIncidents);
    memory.addJournal(journal.reverse());
    this.table = memory;
    this.unavailable = `cannot save to ${this.file}: ${whyUnwritable(this.dir, err)}`;
    this.lastDiskAttempt = this.now();
    this.scheduleRetry();
  }

  private tryDiskAgain(): void {
    const at = this.now();
    if (at - this.lastDiskAttempt < this.diskRetryMs) return;
    this.lastDiskAttempt = at;
    const opening = openOnDisk(this.dir, this.file, at);
    if (!opening.table) {
      this.unavailable = opening.problem;
      return;
    }
    try {
      opening.table.write(this.table.all(), this.maxIncidents);
      opening.table.addJournal(this.table.journal.list({ limit: MAX_JOURNAL_ENTRIES }).reverse());
    } catch (err) {
      opening.table.close();
      this.unavailable = `cannot save to ${this.file}: ${describeError(err)}`;
      return;
    }
    this.table.close();
    this.table = opening.table;
    this.unavailable = null;
    if (opening.recovered) this.recovered = opening.recovered;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('IncidentStore is closed');
  }
}

/** Whatever history can still be read from a file Corral cannot write; nothing if unreadable. */
function readableHistory(file: string): Incident[] {
  if (!existsSync(file)) return [];
  try {
    return IncidentTable.readOnlySnapshot(file);
  } catch {
    return [];
  }
}

/** The data directory exists (or was just made) and is the user's own (own-data-dir.ts). */
function existsOrCreatable(dir: string): boolean {
  try {
    ensureOwnDataDir(dir);
    return true;
  } catch {
    return false;
  }
}
