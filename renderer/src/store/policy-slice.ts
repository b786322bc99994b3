import type { MonitorEvent, PolicyRule } from '../../../shared/model';
import { mergeJournal } from '../policies/policy-journal';
import type { SliceCreator } from './slices';

export interface PolicySlice {
  /** policy-matched and stopped-by-policy events, stored and pushed since, newest first. */
  policyJournal: MonitorEvent[];
  /** A rule the user started from a flagged group ("make this a rule…"), shown in Settings. */
  ruleDraft: PolicyRule | null;
  receivePolicyEvent: (event: MonitorEvent) => void;
  /** The journal as stored by the core (it survives restarts), merged with what was pushed since. */
  loadPolicyJournal: (stored: readonly MonitorEvent[]) => void;
  setRuleDraft: (rule: PolicyRule | null) => void;
}

export const createPolicySlice: SliceCreator<PolicySlice> = (set, get) => ({
  policyJournal: [],
  ruleDraft: null,
  receivePolicyEvent: (event) => set({ policyJournal: mergeJournal([event], get().policyJournal) }),
  loadPolicyJournal: (stored) => set({ policyJournal: mergeJournal(stored, get().policyJournal) }),
  setRuleDraft: (ruleDraft) => set({ ruleDraft }),
});
