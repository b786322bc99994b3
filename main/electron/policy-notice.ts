// Whether a policy's event deserves a desktop notification, as a pure decision. A `notify` rule
// notifies (in observe and enforce mode alike: a notification signals nothing); a stop carried out in
// enforce mode says so; a `stop` rule only observed (or refused) notifies nobody: it is counted in the
// Settings journal instead, so observe mode never nags. Each (group, policy) is announced once.
import type { MonitorEvent, Settings } from '../../shared/model';
import { shortCommand } from './format';

export interface PolicyNoticeState {
  /** `${type}\n${groupId}\n${policy}` already announced. */
  announced: ReadonlySet<string>;
}

export const INITIAL_POLICY_NOTICE_STATE: PolicyNoticeState = { announced: new Set() };

export interface PolicyNotice {
  title: string;
  body: string;
  groupId: string;
}

export interface PolicyNoticeDecision {
  notice: PolicyNotice | null;
  state: PolicyNoticeState;
  /** Why nothing was shown for a policy event (for logs and tests). */
  suppressed: 'not-announced' | 'already-announced' | 'disabled' | 'paused' | null;
}

/** At most this many keys are remembered; the oldest are forgotten first. */
const REMEMBERED = 2_000;

export function decidePolicyNotice(
  event: MonitorEvent,
  state: PolicyNoticeState,
  { now, settings }: { now: number; settings: Settings['notifications'] },
): PolicyNoticeDecision {
  const policy = event.detail?.policy;
  const none = (suppressed: PolicyNoticeDecision['suppressed']): PolicyNoticeDecision => ({
    notice: null,
    state,
    suppressed,
  });
  if (typeof policy !== 'string') return none(null);
  const notify = event.type === 'policy-matched' && event.detail?.action === 'notify';
  const stopped = event.type === 'stopped-by-policy';
  if (!notify && !stopped) return none('not-announced');
  const key = `${event.type}\n${event.groupId}\n${policy}`;
  if (state.announced.has(key)) return none('already-announced');
  if (!settings.enabled) return none('disabled');
  if (settings.pausedUntil !== null && settings.pausedUntil > now) return none('paused');
  const announced = new Set(state.announced);
  announced.add(key);
  if (announced.size > REMEMBERED) announced.delete(announced.values().next().value!);
  const command = event.command ? shortCommand(event.command) : `group ${event.pgid}`;
  const agent = event.agent?.name ?? 'unknown agent';
  const notice: PolicyNotice = stopped
    ? {
        title: `Policy "${policy}" stopped a group`,
        body: `${command} (${agent}, group ${event.pgid}) was stopped${event.detail?.clean === false ? ', not cleanly' : ''}.`,
        groupId: event.groupId,
      }
    : {
        title: `Policy "${policy}" matched`,
        body: `${command} (${agent}, group ${event.pgid}) matches this rule.`,
        groupId: event.groupId,
      };
  return { notice, state: { announced }, suppressed: null };
}
