import type { GroupView } from '../../../shared/model';
import { groupPortNumbers } from '../../../shared/words/provenance-text';
import { compareGroups } from '../../../shared/triage';
import { headingText, whatText } from '../group-table';

/** The orders `s` steps through, each with the word the header shows. */
export const SORTS: ReadonlyArray<{ name: string; compare: (a: GroupView, b: GroupView) => number }> = [
  { name: 'urgency', compare: compareGroups },
  { name: 'CPU', compare: (a, b) => (b.cpuPercent ?? -1) - (a.cpuPercent ?? -1) || compareGroups(a, b) },
  { name: 'memory', compare: (a, b) => b.rssBytes - a.rssBytes || compareGroups(a, b) },
  { name: 'age', compare: (a, b) => a.startedAt - b.startedAt || compareGroups(a, b) },
];

/**
 * Whether a group matches what was typed after `/`: `:3000` a port it listens on, anything else a
 * part of its command (any process's), description, id or agent session (case-insensitive).
 */
export function matchesSearch(group: GroupView, query: string): boolean {
  const q = query.trim();
  if (q === '') return true;
  const port = /^:(\d{1,5})$/.exec(q);
  if (port) return groupPortNumbers(group).includes(Number(port[1]));
  const needle = q.toLowerCase();
  const haystack = [whatText(group), group.id, headingText(group), ...group.processes.map((p) => p.command)];
  return haystack.some((text) => text.toLowerCase().includes(needle));
}

/** The selection after the list changed: the same group if still shown, else the nearest row. */
export function keepSelection(
  ids: readonly string[],
  selected: string | null,
  previousIndex: number,
): string | null {
  if (ids.length === 0) return null;
  if (selected !== null && ids.includes(selected)) return selected;
  return ids[Math.min(Math.max(0, previousIndex), ids.length - 1)]!;
}

/** The first line of a window of `height` lines over `total` that keeps line `index` in view. */
export function scrollTop(index: number, top: number, height: number, total: number): number {
  if (height <= 0 || total <= height) return 0;
  if (index < top) return index;
  if (index >= top + height) return index - height + 1;
  return Math.min(top, total - height);
}
