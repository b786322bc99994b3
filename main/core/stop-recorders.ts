import type { GroupView, PolicyRule } from '../../shared/model';
import { stopAndRecord, type StopOptions, type StopRecorder } from './actions/stop-and-record';
import type { Monitor } from './monitor/monitor';
import type { PolicyStopResult } from './policies/policy-engine';

/**
 * The recorder of a stop this Corral runs: each signal goes on the group's timeline as soon as it is
 * sent, since the monitor may see the group end before the teardown returns and must know by then who
 * stopped it (its incidents end stopped-by-user). `by` names who asked; the monitor's default is the user.
 */
export function monitorRecorder(monitor: Monitor, by?: string): StopRecorder {
  return {
    stopping: () => {},
    signalled: (group, fresh) => {
      for (const s of fresh) monitor.noteSignal(group.id, s.signal, s.target, s.result, s.at, by);
    },
  };
}

/**
 * A policy's stop through the one stop path. The group is marked as the policy's before the first
 * signal (the group may be seen empty before the teardown returns), and the mark is taken back when
 * no signal could be sent.
 */
export async function policyStop(
  monitor: Monitor,
  groups: readonly GroupView[],
  group: GroupView,
  rule: PolicyRule,
  options: StopOptions,
): Promise<PolicyStopResult> {
  const at = Date.now();
  const onTimeline = monitorRecorder(monitor, `policy ${rule.name}`);
  const outcome = await stopAndRecord({ groupId: group.id }, groups, options, {
    stopping: (proven) => monitor.policies.noteStop(proven.id, rule.name, at),
    signalled: onTimeline.signalled,
  });
  if (outcome.refused !== null) return { refused: outcome.refused.message, clean: false };
  const { result } = outcome;
  const sent = result.signals.some((s) => s.result === 'sent');
  if (!sent) monitor.policies.noteStop(outcome.group.id, null, at);
  return { refused: sent ? null : (result.refused ?? 'nothing was signalled'), clean: result.clean };
}
