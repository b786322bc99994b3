import { releaseCleanFilePages } from './os/clean-file-pages';

/**
 * How long a long-lived command runs before it lets go of what start-up alone touched: loading the
 * CLI, reading the config, opening storage, starting the hook server, the first sweeps and the first
 * provenance (rebuilt every 5 s). What runs after that faults its pages back in once.
 */
export const START_UP_SETTLED_MS = 10_000;

/**
 * Once, `delayMs` after a long-lived command started: drops the clean file pages of its resident set
 * (main/core/os/clean-file-pages.ts), most of them Node's own binary touched only while starting. A
 * 1,000-process `corral watch` on Node 24 went from 47 to 19 MB file-backed (docs/performance.md).
 * Returns the cancel for a command that stops first; the timer never keeps the process alive.
 */
export function releaseStartUpPagesLater(delayMs = START_UP_SETTLED_MS): () => void {
  const timer = setTimeout(() => releaseCleanFilePages(), delayMs);
  timer.unref();
  return () => clearTimeout(timer);
}
