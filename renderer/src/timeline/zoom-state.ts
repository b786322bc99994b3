import type { TimeWindow } from './layout';

/** A zoomed view; `pinnedToNow` views keep their span and slide with live data. */
export interface ZoomState {
  key: string;
  view: TimeWindow;
  pinnedToNow: boolean;
}

export function effectiveWindow(zoom: ZoomState | null, key: string, bounds: TimeWindow): TimeWindow {
  if (!zoom || zoom.key !== key) return bounds;
  const span = Math.min(zoom.view.to - zoom.view.from, bounds.to - bounds.from);
  if (zoom.pinnedToNow) return { from: bounds.to - span, to: bounds.to };
  const from = Math.min(Math.max(zoom.view.from, bounds.from), bounds.to - span);
  return { from, to: from + span };
}

export function toZoomState(key: string, view: TimeWindow, bounds: TimeWindow): ZoomState | null {
  if (view.from <= bounds.from && view.to >= bounds.to) return null;
  return { key, view, pinnedToNow: view.to >= bounds.to };
}
