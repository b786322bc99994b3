import type { GroupView, PolicyMode, PolicyRule, Settings } from '../../../shared/model';
import { runsOnPurpose } from '../../../shared/background-task';
import { compileRule, ruleMatches } from '../analysis/policy-match';

export interface PolicyMatchNow {
  groupId: string;
  pgid: number;
  agent: string | null;
  flags: string[];
  /** The group would be refused by a stop: it holds the agent's own process. */
  containsAgent: boolean;
  command: string;
}

export interface PolicyReport {
  mode: PolicyMode;
  rules: Array<PolicyRule & { matches: PolicyMatchNow[] }>;
}

/** Each rule, and the groups it matches in these views at `now` (what `corral policies` shows). */
export function policyReport(settings: Settings, groups: readonly GroupView[], now: number): PolicyReport {
  return {
    mode: settings.policyMode,
    rules: settings.policies.map((rule) => {
      // A disabled rule is reported with what it would match if it were switched on.
      const compiled = compileRule({ ...rule, enabled: true });
      return {
        ...rule,
        matches: groups
          // A kept group (`corral keep`) or a live background task never matches a stop, as in the engine.
          .filter((g) => !(runsOnPurpose(g) && rule.action === 'stop') && ruleMatches(compiled, g, now))
          .map((g) => ({
            groupId: g.id,
            pgid: g.pgid,
            agent: g.agent?.name ?? null,
            flags: [...g.flags],
            containsAgent: g.containsAgent,
            command: (g.processes.find((p) => p.pid === g.leaderPid) ?? g.processes[0])?.command ?? '',
          })),
      };
    }),
  };
}
