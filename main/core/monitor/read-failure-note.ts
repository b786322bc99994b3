/**
 * What the monitor says of looks that failed for a reason of Corral's own (out of file descriptors:
 * EMFILE, ENFILE): once when they start, once when every process could be read again, never once per look.
 */
export class ReadFailureNote {
  private saying: string | null = null;

  constructor(private readonly report: (message: string) => void) {}

  /** The sampler's failure after a look (null: every process was read). */
  check(failure: string | null): void {
    if ((failure === null) === (this.saying === null)) return;
    this.saying = failure;
    this.report(
      failure === null
        ? 'every process is read again'
        : `${failure}: processes Corral cannot read now are not taken for gone; they are read again at each look`,
    );
  }

  /** The failure said and not yet cleared; null while every look succeeds. */
  get current(): string | null {
    return this.saying;
  }
}
