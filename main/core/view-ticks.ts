import type { Monitor } from './monitor/monitor';

/**
 * Calls `listener` when what a viewer sees may have changed: after every poll (CPU and memory move
 * once per poll), and after a watch between polls only when it delivered events. The watches run at
 * up to 10 Hz while an agent's processes are alive; rebuilding views at that pace for no change is
 * what made the shipped arrangements cost more than the monitor.
 */
export function onViewTick(monitor: Monitor, listener: () => void): () => void {
  let firedThisRun = false;
  // A run (poll or watch) delivers its events, then its ticks, then (a poll only) its poll listeners.
  const offTick = monitor.onTick((hadEvents) => {
    firedThisRun = hadEvents;
    if (hadEvents) listener();
  });
  const offPoll = monitor.onPoll(() => {
    if (!firedThisRun) listener();
    firedThisRun = true;
  });
  return () => {
    offTick();
    offPoll();
  };
}
