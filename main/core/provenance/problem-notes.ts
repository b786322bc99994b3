/** How many distinct problems one instance reports at most: a hostile tree cannot flood the log. */
const MAX_NOTES = 32;

/**
 * Problems met while reading provenance (a file refused, a group that could not be decorated), each
 * reported once for the life of the instance, never once per poll.
 */
export class ProblemNotes {
  private readonly said = new Set<string>();

  constructor(private readonly report?: (message: string) => void) {}

  say(key: string, message: string): void {
    if (!this.report || this.said.has(key) || this.said.size > MAX_NOTES) return;
    this.said.add(key);
    try {
      this.report(
        this.said.size > MAX_NOTES ? 'further problems are not reported (see the ones above)' : message,
      );
    } catch {
      // A reporter that fails loses the note, never the pass that met the problem.
    }
  }
}
