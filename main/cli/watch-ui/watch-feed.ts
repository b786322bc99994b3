import type { MonitorEvent, Snapshot } from '../../../shared/model';
import type { CorralService } from '../../core/facade/service';
import { describeEvent } from '../event-words';

export interface WatchFeedState {
  snapshot: Snapshot | null;
  /** The latest events, in words, oldest first. */
  events: readonly string[];
}

export interface WatchFeed {
  get: () => WatchFeedState;
  subscribe: (listener: () => void) => () => void;
  /** Unsubscribes from the service: called once, when watch ends, whatever React did. */
  close: () => void;
}

const KEPT_EVENTS = 12;

/**
 * What the interactive view shows, fed by the service outside React: the subscriptions end when
 * watch ends (close), not when React gets round to an effect's cleanup.
 */
export function watchFeed(service: Pick<CorralService, 'onSnapshot' | 'onEvent'>): WatchFeed {
  let state: WatchFeedState = { snapshot: null, events: [] };
  const listeners = new Set<() => void>();
  const set = (next: WatchFeedState): void => {
    state = next;
    for (const l of listeners) l();
  };
  const offSnapshot = service.onSnapshot((snapshot) => set({ ...state, snapshot }));
  const offEvents = service.onEvent((e: MonitorEvent) =>
    set({ ...state, events: [...state.events.slice(-(KEPT_EVENTS - 1)), describeEvent(e)] }),
  );
  return {
    get: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => {
      offSnapshot();
      offEvents();
      listeners.clear();
    },
  };
}
