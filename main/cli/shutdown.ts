/** How long `watch`, `serve` and `metrics` take at most to end after SIGTERM or SIGINT. */
export const SHUTDOWN_DEADLINE_MS = 5000;

/**
 * Resolves on the first SIGINT or SIGTERM, for the command to stop what it runs. From then on the
 * shutdown is bounded: should that stop never settle (a socket that does not close, a teardown that
 * hangs), the process exits at SHUTDOWN_DEADLINE_MS all the same, and at once on a second signal.
 * The timer is unref'd: a stop that ends in time lets the process end as soon as it is done. (The main
 * thread never waits on a file: agents' files are opened non-blocking, files/untrusted-file.ts, so
 * the signal is always seen.)
 */
export function untilSignalled(command: string): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const first = (signal: NodeJS.Signals): void => {
      const giveUp = (why: string): void => {
        process.stderr.write(`corral ${command}: ${why}; exiting without finishing the stop\n`);
        process.exit(1);
      };
      // Added before `first` goes: a signal always has a listener (none would restore the default action).
      process.once('SIGINT', () => giveUp('a second signal came'));
      process.once('SIGTERM', () => giveUp('a second signal came'));
      process.off('SIGINT', first);
      process.off('SIGTERM', first);
      setTimeout(
        () => giveUp(`not stopped ${SHUTDOWN_DEADLINE_MS} ms after ${signal}`),
        SHUTDOWN_DEADLINE_MS,
      ).unref();
      resolve(signal);
    };
    process.on('SIGINT', first);
    process.on('SIGTERM', first);
  });
}
