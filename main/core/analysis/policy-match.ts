import type { GroupView, PolicyRule } from '../../../shared/model';
import { compileLinear, type LinearPattern } from './linear-pattern';
import { boundedText } from './regex-safety';

/** A group view as a policy reads it: `session` and `ports` are absent where provenance is unknown. */
export type PolicyGroup = GroupView;

/**
 * A rule with its command patterns compiled once, on RE2: a command line is any local process's to
 * write, and no pattern may take more than linear time over it (validation refused what RE2 cannot run).
 */
export interface CompiledRule {
  rule: PolicyRule;
  patterns: LinearPattern[];
}

export const compileRule = (rule: PolicyRule): CompiledRule => ({
  rule,
  patterns: (rule.match.commandPatterns ?? []).map(compileLinear),
});

const MB = 1024 * 1024;

function groupPorts(group: PolicyGroup): Set<number> {
  const ports = new Set<number>((group.ports ?? []).map((p) => p.port));
  for (const p of group.processes) for (const port of p.ports ?? []) ports.add(port.port);
  return ports;
}

/** The session that started the group is over: a hook reported it, or its agent is gone. */
function sessionEnded(group: PolicyGroup): boolean {
  if (group.flags.includes('session-ended')) return true;
  return group.session?.agentAlive === false;
}

/** Whether every condition the rule gives holds for this group now. A disabled rule matches nothing. */
export function ruleMatches(compiled: CompiledRule, group: PolicyGroup, now: number): boolean {
  const { rule, patterns } = compiled;
  if (rule.enabled === false) return false;
  const m = rule.match;
  if (m.agents && !(group.agent !== null && m.agents.includes(group.agent.name))) return false;
  if (m.flags && !m.flags.every((f) => (group.flags as readonly string[]).includes(f))) return false;
  if (m.minAgeSeconds !== undefined && (now - group.startedAt) / 1000 < m.minAgeSeconds) return false;
  if (m.minCpuSeconds !== undefined) {
    let cpu = 0;
    for (const p of group.processes) cpu += p.cpuSeconds ?? 0;
    if (cpu < m.minCpuSeconds) return false;
  }
  if (m.minMemoryMegabytes !== undefined && group.rssBytes / MB < m.minMemoryMegabytes) return false;
  if (m.sessionEnded !== undefined && sessionEnded(group) !== m.sessionEnded) return false;
  if (patterns.length > 0) {
    const hit = group.processes.some((p) => {
      const command = boundedText(p.command);
      return patterns.some((re) => re.test(command));
    });
    if (!hit) return false;
  }
  if (m.ports) {
    const ports = groupPorts(group);
    if (!m.ports.some((p) => ports.has(p))) return false;
  }
  return true;
}

/** The rules that match this group now, in the order they are listed. */
export function matchingRules(
  rules: readonly CompiledRule[],
  group: PolicyGroup,
  now: number,
): CompiledRule[] {
  return rules.filter((r) => ruleMatches(r, group, now));
}
