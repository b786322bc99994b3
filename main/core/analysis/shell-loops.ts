import { Buckets, KEEP_MS } from './buckets';

/** Shells followed at once; commands each keeps. */
const MAX_SHELLS = 64;
const MAX_COMMANDS = 16;
/** A loop whose shell's known starts are `sleep` this often (one in ten) is paced: it waits, it does not storm. */
const PACED_SHARE = 0.1;
/** One command line must be at least this share of a shell's known starts for it to be a loop. */
const LOOP_SHARE = 0.5;

/** `sleep`, however it is named (`/bin/sleep 1`, `sleep 0.1`). */
export const isSleep = (command: string): boolean => /^(\S*\/)?sleep(\s|$)/.test(command);

/** One shell's starts: all of them (read or counted unread), and those whose command line was read. */
class ShellStarts {
  readonly births = new Buckets();
  readonly commands = new Map<string, Buckets>();
}

/**
 * Births by the shell that started them, for the loop rule: a loop is one shell starting one command
 * line again and again (`while :; do /bin/true; done`, `until false; do sh -c 'exit 1'; done`), without
 * pausing in `sleep` between tries (`until curl -sf …; do sleep 0.1; done` waits for a server).
 *
 * Most of a loop's children live less than a look: their births are counted without their command line
 * (spawn-births.ts). So a shell's loop rate is all its births, times the share its most started command
 * line has among the starts whose command was read, over the last minute: a sample, but one whose
 * share does not depend on how often Corral looks. A script that runs many different commands (a
 * `configure`) has no such command; a loop's body of two commands keeps half its rate.
 */
export class ShellLoops {
  private readonly shells = new Map<number, ShellStarts>();

  /** `count` births at `at` by `shell`; `command` when their command line was read. */
  add(at: number, shell: number, count: number, command: string | null): void {
    const starts = this.startsOf(shell, at);
    if (!starts) return;
    if (count > 0) starts.births.add(at, count);
    if (command === null) return;
    let buckets = starts.commands.get(command);
    if (!buckets) {
      if (starts.commands.size >= MAX_COMMANDS) return;
      buckets = new Buckets();
      starts.commands.set(command, buckets);
    }
    buckets.add(at, 1);
  }

  /** The busiest unpaced loop's starts over the last `windowMs` (a count, to be scaled). */
  topLoop(now: number, windowMs: number): number {
    let most = 0;
    for (const starts of this.shells.values()) {
      let known = 0;
      let top = 0;
      let slept = 0;
      for (const [command, b] of starts.commands) {
        const n = b.within(now, KEEP_MS);
        known += n;
        if (isSleep(command)) slept += n;
        else top = Math.max(top, n);
      }
      if (known === 0 || slept >= known * PACED_SHARE || top < known * LOOP_SHARE) continue;
      most = Math.max(most, Math.round((starts.births.within(now, windowMs) * top) / known));
    }
    return most;
  }

  private startsOf(shell: number, at: number): ShellStarts | undefined {
    let starts = this.shells.get(shell);
    if (starts) return starts;
    if (this.shells.size >= MAX_SHELLS)
      for (const [pid, s] of this.shells) if (s.births.within(at, KEEP_MS) === 0) this.shells.delete(pid);
    if (this.shells.size >= MAX_SHELLS) return undefined;
    starts = new ShellStarts();
    this.shells.set(shell, starts);
    return starts;
  }
}
