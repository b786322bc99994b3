import type { SliceCreator } from './slices';

export type GroupFilter = 'flagged' | 'agents' | 'all';
export type Page = 'overview' | 'incidents' | 'settings';
export type TimeRange = '5m' | '1h' | '24h' | 'all';
/** `stale`: the server restarted with a new token; this page must be reopened from the new URL. */
export type ConnectionStatus = 'connecting' | 'open' | 'closed' | 'stale';

export interface UiSlice {
  page: Page;
  filter: GroupFilter;
  search: string;
  selectedGroupId: string | null;
  range: TimeRange;
  connection: ConnectionStatus;
  setPage: (page: Page) => void;
  setFilter: (filter: GroupFilter) => void;
  setSearch: (search: string) => void;
  selectGroup: (groupId: string | null) => void;
  setRange: (range: TimeRange) => void;
  setConnection: (connection: ConnectionStatus) => void;
}

export const createUiSlice: SliceCreator<UiSlice> = (set) => ({
  page: 'overview',
  filter: 'flagged',
  search: '',
  selectedGroupId: null,
  range: 'all',
  connection: 'open',
  setPage: (page) => set({ page }),
  setFilter: (filter) => set({ filter }),
  setSearch: (search) => set({ search }),
  selectGroup: (selectedGroupId) => set({ selectedGroupId }),
  setRange: (range) => set({ range }),
  setConnection: (connection) => set({ connection }),
});
