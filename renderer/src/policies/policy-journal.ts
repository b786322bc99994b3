import type { GroupView, MonitorEvent, PolicyRule } from '../../../shared/model';

/** At most this many journal entries are kept in the window (newest first). */
export const JOURNAL_LIMIT = 500;

/** One entry per event type, group and policy: the core records each once, pushed or stored. */
const journalKey = (e: MonitorEvent): string => `${e.type}\n${e.groupId}\n${String(e.detail?.policy)}`;

/** Both lists as one journal, newest first, each entry once, at most JOURNAL_LIMIT. */
export function mergeJournal(a: readonly MonitorEvent[], b: readonly MonitorEvent[]): MonitorEvent[] {
  const byKey = new Map<string, MonitorEvent>();
  for (const e of [...a, ...b]) if (!byKey.has(journalKey(e))) byKey.set(journalKey(e), e);
  return [...byKey.values()].sort((x, y) => y.at - x.at).slice(0, JOURNAL_LIMIT);
}

export const isPolicyEvent = (e: MonitorEvent): boolean =>
  e.type === 'policy-matched' || e.type === 'stopped-by-policy';

/** Local midnight of the day `now` falls in. */
export function startOfDay(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** Groups a `stop` rule matched since `since` without stopping them (observe mode, or refused). */
export function wouldHaveStopped(journal: readonly MonitorEvent[], since: number): number {
  const groups = new Set<string>();
  for (const e of journal)
    if (
      e.type === 'policy-matched' &&
      e.at >= since &&
      e.detail?.action === 'stop' &&
      e.detail.executed === false
    )
      groups.add(e.groupId);
  return groups.size;
}

/** Groups policies stopped since `since`. */
export function stoppedByPolicies(journal: readonly MonitorEvent[], since: number): number {
  return new Set(journal.filter((e) => e.type === 'stopped-by-policy' && e.at >= since).map((e) => e.groupId))
    .size;
}

/**
 * A rule prefilled from a flagged group: its agent and flags (never a PPID alone), observed as a
 * `notify` rule until the user chooses `stop`.
 */
export function ruleFromGroup(group: GroupView, existing: readonly PolicyRule[]): PolicyRule {
  const base = `${group.agent?.name ?? 'any-agent'}-${group.flags.join('-') || 'group'}`.slice(0, 56);
  let name = base;
  for (let i = 2; existing.some((r) => r.name === name); i++) name = `${base}-${i}`;
  const match: PolicyRule['match'] = {};
  if (group.agent) match.agents = [group.agent.name];
  if (group.flags.length > 0) match.flags = [...group.flags];
  return { name, match, action: 'notify' };
}
