import type { Monitor } from '../monitor/monitor';

/** Why a view tick fired: a run (poll or watch) delivered events, or a poll delivered none. */
export type ViewTick = 'events' | 'poll';

/**
 * Calls `listener` when what a viewer sees may have changed: after every poll (CPU and memory move
 * once per poll), and after a watch between polls only when it delivered events; once per run. The
 * watches run at up to 10 Hz while an agent's processes are alive; rebuilding views at that pace for no
 * change is what made the shipped arrangements cost more than the monitor. Every view's pushes (the
 * service's snapshots, the tray's) hang on this one tick.
 */
export function onViewTick(monitor: Monitor, listener: (tick: ViewTick) => void): () => void {
  let firedThisRun = false;
  // A run (poll or watch) delivers its events, then its ticks, then (a poll only) its poll listeners.
  const offTick = monitor.onTick((hadEvents) => {
    firedThisRun = hadEvents;
    if (hadEvents) listener('events');
  });
  const offPoll = monitor.onPoll(() => {
    if (!firedThisRun) listener('poll');
    firedThisRun = true;
  });
  return () => {
    offTick();
    offPoll();
  };
}
