import type { ProblemNotes } from './problem-notes';

/**
 * How long one pass may read agents' files: `mayRead` turns false once `budgetMs` passed since the pass
 * began, and says so once (through the problem notes).
 */
export class ReadBudget {
  /** When this pass's file reads must stop (performance.now()), `budgetMs` after it began. */
  private readsUntil = Infinity;

  constructor(
    readonly budgetMs: number,
    private readonly notes: ProblemNotes,
  ) {}

  begin(): void {
    this.readsUntil = performance.now() + this.budgetMs;
  }

  end(): void {
    this.readsUntil = Infinity;
  }

  /** Whether this pass may still read agents' files; said once when it may not. */
  mayRead(): boolean {
    if (performance.now() < this.readsUntil) return true;
    this.notes.say(
      'budget',
      `reading agents' files took over ${this.budgetMs} ms in one pass; the rest waits for a later pass`,
    );
    return false;
  }
}
