/**
 * Times each of the monitor's polls from outside: the monitor runs every poll through its own public
 * `poll()`, so wrapping that one method on the instance measures exactly the poll (not the cheaper
 * watch between polls) without a hook inside the monitor. A poll that throws is timed too, and the
 * error goes on to the monitor's own guard, which counts it.
 */
export function timePolls(monitor: { poll(): void }, observe: (seconds: number) => void): () => void {
  const original = monitor.poll;
  const timed = (): void => {
    const started = performance.now();
    try {
      original.call(monitor);
    } finally {
      observe((performance.now() - started) / 1000);
    }
  };
  monitor.poll = timed;
  return () => {
    if (monitor.poll === timed) monitor.poll = original;
  };
}
