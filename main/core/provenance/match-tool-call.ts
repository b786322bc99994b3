import { commandMentions } from './tool-call-command';
import type { TranscriptCall } from './claude-transcript-records';

/**
 * Start times are read with a second's precision on Linux (boot time), and a transcript's timestamp
 * is written when the model's answer arrived, just before the call runs: allow this much either way.
 */
export const START_SLACK_MS = 2000;

export interface LeftoverFacts {
  /** The command inside the tool-call wrapper, when the wrapper is still alive to read it. */
  wrapperCommand: string | null;
  /** Command lines of the group's live processes. */
  processCommands: readonly string[];
  /**
   * The commands the group's live shells run (a `-c` argument, Claude's `eval '…'`): a leftover that is
   * the tool-call shell's own fork (a backgrounded loop) still runs the call's command whole.
   */
  shellCommands?: readonly string[];
  /** When the group's earliest live process started, ms since epoch. */
  startedAt: number;
}

/**
 * The Bash call a leftover came from. The wrapper's own command decides when it is known, then a live
 * shell running a call's command whole (the wrapper's fork); otherwise a call counts when it was running when the leftover started (issued before, returned after); when
 * several were, the one whose command names a leftover's command line. Never a guess: null when the
 * evidence does not single out one call.
 */
export function matchToolCall(
  calls: Iterable<TranscriptCall>,
  leftover: LeftoverFacts,
): TranscriptCall | null {
  const issuedBefore = [...calls]
    .filter((c) => c.issuedAt <= leftover.startedAt + START_SLACK_MS)
    .sort((a, b) => b.issuedAt - a.issuedAt);
  if (leftover.wrapperCommand !== null) {
    return issuedBefore.find((c) => c.command === leftover.wrapperCommand) ?? null;
  }
  const whole = issuedBefore.find((c) => leftover.shellCommands?.includes(c.command) ?? false);
  if (whole) return whole;
  const mentions = (c: TranscriptCall): boolean =>
    leftover.processCommands.some((p) => commandMentions(c.command, p));
  const running = issuedBefore.filter(
    (c) => c.returnedAt === null || c.returnedAt >= leftover.startedAt - START_SLACK_MS,
  );
  if (running.length === 1) return running[0]!;
  const named = (running.length > 1 ? running : issuedBefore).filter(mentions);
  return named.length === 1 || (named.length > 1 && running.length === 0) ? named[0]! : null;
}
