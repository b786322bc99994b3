/** The file's contents cannot be trusted (failed an integrity check). */
export class DamagedDatabaseError extends Error {
  override readonly name = 'DamagedDatabaseError';
}

// libsql: `code` ('SQLITE_FULL') and `rawCode`; node:sqlite: `code` 'ERR_SQLITE_ERROR' and `errcode`.
// Both numbers are SQLite's extended result code.
interface SqliteLikeError {
  code?: unknown;
  rawCode?: unknown;
  errcode?: unknown;
  message?: unknown;
}

const SQLITE_CORRUPT = 11;
const SQLITE_NOTADB = 26;

function primaryCode(err: SqliteLikeError): number | null {
  if (typeof err.rawCode === 'number') return err.rawCode & 0xff;
  if (typeof err.errcode === 'number') return err.errcode & 0xff;
  // libsql reports some open failures as `ConnectionFailed("...: 14")` with no code.
  const match = /: (\d+)"?\)?$/.exec(String(err.message ?? ''));
  return match ? Number(match[1]) & 0xff : null;
}

/** True when the error says the database file itself is damaged, as opposed to unwritable. */
export function isDamage(err: unknown): boolean {
  if (err instanceof DamagedDatabaseError) return true;
  if (typeof err !== 'object' || err === null) return false;
  const e = err as SqliteLikeError;
  const code = typeof e.code === 'string' ? e.code : '';
  if (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB')) return true;
  const primary = primaryCode(e);
  return primary === SQLITE_CORRUPT || primary === SQLITE_NOTADB;
}

const PRIMARY_NAMES: Record<number, string> = {
  5: 'database is locked by another process',
  8: 'attempt to write a readonly database',
  10: 'disk I/O error',
  13: 'database or disk is full',
  14: 'unable to open database file',
  23: 'access permission denied',
};

/** One line for a problem message: what SQLite or the file system said. */
export function describeError(err: unknown): string {
  if (typeof err !== 'object' || err === null) return String(err);
  const e = err as SqliteLikeError;
  const message = String(e.message ?? err);
  const primary = primaryCode(e);
  const named = primary === null ? undefined : PRIMARY_NAMES[primary];
  if (message.startsWith('ConnectionFailed') && named) return named;
  return message;
}

// Constraint, type, size and range errors come from the data passed in, not from the disk.
const CALLER_CODES = new Set([18, 19, 20, 25]);

/** True when the write failed because of what was written; falling back to memory would not help. */
export function isCallerError(err: unknown): boolean {
  if (err instanceof TypeError) return true;
  if (typeof err !== 'object' || err === null) return false;
  const primary = primaryCode(err as SqliteLikeError);
  return primary !== null && CALLER_CODES.has(primary);
}
