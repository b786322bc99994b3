import type { CorralApi } from '../../../shared/contract';
import type { CorralStore } from '../store/create-store';
import type { TimeRange } from '../store/ui-slice';
import { RANGE_MS } from '../timeline/ranges';
import { errorMessage } from './errors';

/** `sinceMs` for a range, relative to the core's clock (the store's `now`). */
export function sinceForRange(range: TimeRange, now: number): number | undefined {
  const span = RANGE_MS[range];
  return span === null ? undefined : now - span;
}

/**
 * Keeps the selected group's timeline fresh: fetches on selection or range change, after each
 * snapshot and on each tick of the clock (pushes come only when something changed, the timeline moves
 * on anyway). One request at a time; what arrives meanwhile coalesces into one more fetch.
 */
export function startTimelineSync(api: CorralApi, store: CorralStore): () => void {
  let inFlight = false;
  let again = false;
  let stopped = false;

  const fetchNow = () => {
    const { selectedGroupId, range, now } = store.getState();
    if (stopped || selectedGroupId === null) return;
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    const sinceMs = sinceForRange(range, now || Date.now());
    const request =
      sinceMs === undefined ? { groupId: selectedGroupId } : { groupId: selectedGroupId, sinceMs };
    api
      .request('timeline:get', request)
      .then(
        (timeline) => store.getState().receiveTimeline(selectedGroupId, timeline),
        (error: unknown) => store.getState().receiveTimelineError(selectedGroupId, errorMessage(error)),
      )
      .finally(() => {
        inFlight = false;
        if (again) {
          again = false;
          fetchNow();
        }
      });
  };

  const unsubscribers = [
    store.subscribe(
      (s) => [s.selectedGroupId, s.range] as const,
      ([groupId], [previousGroupId]) => {
        if (groupId !== previousGroupId)
          store.setState({ timeline: null, timelineFor: null, timelineError: null });
        fetchNow();
      },
      { equalityFn: (a, b) => a[0] === b[0] && a[1] === b[1] },
    ),
    // A snapshot sets `now` too: one fetch for both.
    store.subscribe((s) => [s.snapshot?.seq, s.now] as const, fetchNow, {
      equalityFn: (a, b) => a[0] === b[0] && a[1] === b[1],
    }),
  ];
  fetchNow();
  return () => {
    stopped = true;
    unsubscribers.forEach((unsubscribe) => unsubscribe());
  };
}
