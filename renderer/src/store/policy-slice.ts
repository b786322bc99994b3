import type { MonitorEvent, PolicyRule } from '../../../shared/model';
import { JOURNAL_LIMIT } from '../policies/policy-journal';
import type { SliceCreator } from './slices';

export interface PolicySlice {
  /** policy-matched and stopped-by-policy events seen since the window opened, newest first. */
  policyJournal: MonitorEvent[];
  /** A rule the user started from a flagged group ("make this a rule…"), shown in Settings. */
  ruleDraft: PolicyRule | null;
  receivePolicyEvent: (event: MonitorEvent) => void;
  setRuleDraft: (rule: PolicyRule | null) => void;
}

export const createPolicySlice: SliceCreator<PolicySlice> = (set, get) => ({
  policyJournal: [],
  ruleDraft: null,
  receivePolicyEvent: (event) =>
    set({ policyJournal: [event, ...get().policyJournal].slice(0, JOURNAL_LIMIT) }),
  setRuleDraft: (ruleDraft) => set({ ruleDraft }),
});
