import type { GroupTimeline } from '../../../shared/model';
import { reuseUnchangedLanes } from '../timeline/lane-identity';
import type { SliceCreator } from './slices';

export interface TimelineSlice {
  /** Timeline of the selected group; null until fetched or when the core has none. */
  timeline: GroupTimeline | null;
  /** The group the timeline answer (possibly null) belongs to; null before the first answer. */
  timelineFor: string | null;
  timelineError: string | null;
  receiveTimeline: (groupId: string, timeline: GroupTimeline | null) => void;
  receiveTimelineError: (groupId: string, error: string) => void;
}

export const createTimelineSlice: SliceCreator<TimelineSlice> = (set, get) => ({
  timeline: null,
  timelineFor: null,
  timelineError: null,
  receiveTimeline: (groupId, timeline) => {
    // A slow response for a group that is no longer selected must not replace the current one.
    if (get().selectedGroupId !== groupId) return;
    const previous = get().timeline;
    const merged =
      timeline && previous && previous.groupId === timeline.groupId
        ? reuseUnchangedLanes(previous, timeline)
        : timeline;
    set({ timeline: merged, timelineFor: groupId, timelineError: null });
  },
  receiveTimelineError: (groupId, error) => {
    if (get().selectedGroupId !== groupId) return;
    set({ timelineError: error });
  },
});
