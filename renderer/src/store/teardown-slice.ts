import type { TeardownResult } from '../../../shared/model';
import type { SliceCreator } from './slices';

export interface TeardownState {
  status: 'running' | 'done' | 'failed';
  result: TeardownResult | null;
  error: string | null;
}

export interface TeardownSlice {
  /** Stops in progress or finished, by group id. Replaced, never mutated. */
  teardowns: Map<string, TeardownState>;
  teardownStarted: (groupId: string) => void;
  teardownProgress: (partial: TeardownResult) => void;
  teardownFinished: (result: TeardownResult) => void;
  teardownFailed: (groupId: string, error: string) => void;
  clearTeardown: (groupId: string) => void;
}

export const createTeardownSlice: SliceCreator<TeardownSlice> = (set, get) => {
  const put = (groupId: string, state: TeardownState) =>
    set({ teardowns: new Map(get().teardowns).set(groupId, state) });
  return {
    teardowns: new Map(),
    teardownStarted: (groupId) => put(groupId, { status: 'running', result: null, error: null }),
    teardownProgress: (partial) => {
      // Progress only matters for a stop this window started and that has not finished yet.
      if (get().teardowns.get(partial.groupId)?.status !== 'running') return;
      put(partial.groupId, { status: 'running', result: partial, error: null });
    },
    teardownFinished: (result) => put(result.groupId, { status: 'done', result, error: null }),
    teardownFailed: (groupId, error) =>
      put(groupId, { status: 'failed', result: get().teardowns.get(groupId)?.result ?? null, error }),
    clearTeardown: (groupId) => {
      const next = new Map(get().teardowns);
      next.delete(groupId);
      set({ teardowns: next });
    },
  };
};
