import type { KeepGroupRequest, KeepGroupResult } from '../../shared/contract';
import { DEFAULT_KEEP_MS, MAX_KEEP_MS } from '../../shared/words/keep-duration';
import type { GroupView } from '../../shared/model';
import type { KeepTarget } from './analysis/kept-marks';
import { addKeep, removeKeepById, removeKeeps } from './storage/keeps';

export interface KeepRequestsOptions {
  dataDir: string;
  /** Every live group as the service reports it. */
  groups: () => GroupView[];
  /** The keep list changed: views built from the old one are stale. */
  changed: () => void;
}

/** The service's `group:keep` and `group:unkeep`: the same store `corral keep` writes. */
export function keepRequests({ dataDir, groups, changed }: KeepRequestsOptions): {
  keepGroup(request: KeepGroupRequest): Promise<KeepGroupResult>;
  unkeepGroup(groupId: string): Promise<KeepGroupResult>;
  groupEnded(group: KeepTarget): void;
} {
  return {
    keepGroup: async ({ groupId, forMs, note }) => {
      const group = groups().find((g) => g.id === groupId);
      if (!group) throw new Error(`group ${groupId} is not running now; nothing was kept`);
      const now = Date.now();
      const ms = Math.min(forMs ?? DEFAULT_KEEP_MS, MAX_KEEP_MS);
      const k = addKeep(dataDir, group, { until: now + ms, note: note?.trim() || null, now });
      changed();
      return { groupId, kept: { until: k.until, since: k.since, note: k.note } };
    },
    unkeepGroup: async (groupId) => {
      const group = groups().find((g) => g.id === groupId);
      if (group) removeKeeps(dataDir, group, Date.now());
      removeKeepById(dataDir, groupId);
      changed();
      return { groupId, kept: null };
    },
    // Keeps end with their group: one that exited or was stopped is kept no more.
    groupEnded: (group) => {
      if (removeKeeps(dataDir, group, Date.now()) > 0) changed();
    },
  };
}
