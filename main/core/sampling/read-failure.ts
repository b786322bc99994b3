/**
 * A read that failed for a reason of Corral's own (`code`: EMFILE, ENFILE…): the process may well be
 * there. Never to be taken for "gone": what was known of it stands, and it is read again at the next look.
 */
export class ProcReadFailed extends Error {
  constructor(
    readonly code: string,
    path: string,
  ) {
    super(
      `cannot read ${path}: ${code}${code === 'EMFILE' || code === 'ENFILE' ? ' (too many open files)' : ''}`,
    );
    this.name = 'ProcReadFailed';
  }
}

/** The error of a look at the process table that failed for Corral's own reason (a listing refused EMFILE too). */
export function readFailureOf(err: unknown, path: string): ProcReadFailed {
  if (err instanceof ProcReadFailed) return err;
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return new ProcReadFailed(typeof code === 'string' ? code : 'EIO', path);
}
