import type { GroupView, MonitorEvent, PolicyRule, Settings } from '../../../shared/model';
import { runsOnPurpose } from '../../../shared/background-task';
import { compileRule, matchingRules, type CompiledRule } from '../analysis/policy-match';

/** What a policy's stop came to: signals sent, or why none were. */
export interface PolicyStopResult {
  /** null when the teardown ran; otherwise why nothing was signalled. */
  refused: string | null;
  clean: boolean;
}

export interface PolicyEngineOptions {
  settings: () => Settings;
  /** Every live group as the core reports it (the same views a manual stop is resolved against). */
  groups: () => GroupView[];
  /** The one stop path (core/actions/stop-and-record.ts), with the rule's grace period. */
  stop: (group: GroupView, rule: PolicyRule) => Promise<PolicyStopResult>;
  /** Delivers an event to every listener (watch --json, the UI, notifications). */
  record: (event: MonitorEvent) => void;
  /** Whether the stored journal already holds this match (a restarted Corral does not act on it again). */
  alreadyRecorded?: (groupId: string, policy: string) => boolean;
  onError?: (step: string, err: unknown) => void;
}

/**
 * Applies the rules after each poll. Each (group, rule) match is recorded once as `policy-matched`
 * (`detail: {policy, action, executed}`). In observe mode nothing is ever signalled. In enforce mode a
 * `stop` rule tears the group down through the one stop path, once per group, with every refusal of
 * a manual stop, and a stop that ran is recorded as `stopped-by-policy`.
 */
export class PolicyEngine {
  /** `${groupId}\n${rule}` pairs already recorded. */
  private readonly seen = new Set<string>();
  /** Groups a policy has asked to stop (one attempt per group, whatever rule asked). */
  private readonly stopped = new Set<string>();
  private compiled: CompiledRule[] = [];
  private compiledFrom: readonly PolicyRule[] | null = null;

  constructor(private readonly options: PolicyEngineOptions) {}

  afterPoll(now: number): void {
    const settings = this.options.settings();
    if (settings.policies.length === 0) return;
    if (this.compiledFrom !== settings.policies) {
      this.compiled = settings.policies.map(compileRule);
      this.compiledFrom = settings.policies;
    }
    const groups = this.options.groups();
    const live = new Set(groups.map((g) => g.id));
    for (const key of this.seen) if (!live.has(key.slice(0, key.indexOf('\n')))) this.seen.delete(key);
    for (const id of this.stopped) if (!live.has(id)) this.stopped.delete(id);
    for (const group of groups) {
      for (const { rule } of matchingRules(this.compiled, group, now)) {
        // A group the user keeps (or a live background task) never matches a stop; unrecorded, so it
        // matches once the keep (or the agent's session) ends.
        if (runsOnPurpose(group) && rule.action === 'stop') continue;
        const key = `${group.id}\n${rule.name}`;
        if (this.seen.has(key)) continue;
        this.seen.add(key);
        if (this.options.alreadyRecorded?.(group.id, rule.name)) continue;
        this.apply(group, rule, settings.policyMode === 'enforce', now);
      }
    }
  }

  private apply(group: GroupView, rule: PolicyRule, enforce: boolean, now: number): void {
    if (!enforce || rule.action === 'notify') {
      this.event('policy-matched', group, now, { policy: rule.name, action: rule.action, executed: enforce });
      return;
    }
    if (this.stopped.has(group.id)) {
      this.event('policy-matched', group, now, {
        policy: rule.name,
        action: rule.action,
        executed: false,
        reason: 'another policy already stopped this group',
      });
      return;
    }
    this.stopped.add(group.id);
    this.options
      .stop(group, rule)
      .then((result) => {
        const at = Date.now();
        const executed = result.refused === null;
        const detail: Record<string, string | boolean> = { policy: rule.name, action: rule.action, executed };
        if (!executed) detail.reason = result.refused!;
        this.event('policy-matched', group, at, detail);
        if (executed) this.event('stopped-by-policy', group, at, { policy: rule.name, clean: result.clean });
      })
      .catch((err: unknown) => this.options.onError?.('policy stop', err));
  }

  private event(
    type: MonitorEvent['type'],
    group: GroupView,
    at: number,
    detail: Record<string, string | boolean>,
  ): void {
    this.options.record({
      type,
      at,
      groupId: group.id,
      pid: group.leaderPid,
      pgid: group.pgid,
      sid: group.sid,
      agent: group.agent,
      command: (group.processes.find((p) => p.pid === group.leaderPid) ?? group.processes[0])?.command,
      detail,
    });
  }
}
