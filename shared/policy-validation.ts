// Checks the `policyMode` and `policies` settings. Shared by the core (loading the config, `settings:set`)
// and the Settings form, so a rule is judged the same way wherever it is written.
import type { PolicyMatch, PolicyMode, PolicyRule } from './model';
import { POLICY_FLAGS } from './flags';
import { NUMERIC_SETTINGS } from './settings-table';
import { whyNotLinear } from './linear-syntax';

/** Flags a rule may ask for (shared/flags.ts says which). */
export { POLICY_FLAGS };
const MATCH_KEYS = [
  'agents',
  'flags',
  'minAgeSeconds',
  'minCpuSeconds',
  'minMemoryMegabytes',
  'sessionEnded',
  'commandPatterns',
  'ports',
];
const RULE_KEYS = ['name', 'match', 'action', 'graceMs', 'enabled'];
export const MAX_POLICIES = 100;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function validatePolicyMode(value: unknown, errors: string[]): PolicyMode | undefined {
  if (value === 'observe' || value === 'enforce') return value;
  errors.push(`policyMode: expected "observe" or "enforce", got ${JSON.stringify(value)}`);
  return undefined;
}

/**
 * Checks the `policies` list. A bad rule is refused whole, with an error naming it (by name when it
 * has one, else by position); the other rules load. Nothing may act on a process for being adopted
 * by PID 1 alone: every rule needs `agents`, `flags` or `sessionEnded`.
 */
export function validatePolicies(value: unknown, errors: string[]): PolicyRule[] | undefined {
  if (!Array.isArray(value)) {
    errors.push('policies: expected a list of rules');
    return undefined;
  }
  if (value.length > MAX_POLICIES) {
    errors.push(`policies: at most ${MAX_POLICIES} rules, got ${value.length}`);
    return undefined;
  }
  const rules: PolicyRule[] = [];
  const names = new Set<string>();
  value.forEach((raw, i) => {
    const rule = validateRule(raw, i, errors);
    if (!rule) return;
    if (names.has(rule.name)) {
      errors.push(`policies[${i}] "${rule.name}": another rule already has this name`);
      return;
    }
    names.add(rule.name);
    rules.push(rule);
  });
  return rules;
}

function validateRule(raw: unknown, index: number, errors: string[]): PolicyRule | null {
  let where = `policies[${index}]`;
  if (!isObject(raw)) {
    errors.push(`${where}: expected an object with name, match and action`);
    return null;
  }
  if (typeof raw.name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/.test(raw.name)) {
    errors.push(
      `${where}.name: expected a name of up to 64 letters, digits, spaces, '.', '_' or '-', got ${JSON.stringify(raw.name)}`,
    );
    return null;
  }
  where = `${where} "${raw.name}"`;
  const problems: string[] = [];
  for (const key of Object.keys(raw)) if (!RULE_KEYS.includes(key)) problems.push(`${key}: unknown key`);
  if (raw.action !== 'notify' && raw.action !== 'stop')
    problems.push(`action: expected "notify" or "stop", got ${JSON.stringify(raw.action)}`);
  if (raw.enabled !== undefined && typeof raw.enabled !== 'boolean')
    problems.push(`enabled: expected true or false, got ${JSON.stringify(raw.enabled)}`);
  const grace = NUMERIC_SETTINGS.graceMs;
  if (
    raw.graceMs !== undefined &&
    (typeof raw.graceMs !== 'number' ||
      !Number.isInteger(raw.graceMs) ||
      raw.graceMs < grace.min ||
      raw.graceMs > grace.max)
  )
    problems.push(`graceMs: expected a whole number of ms in ${grace.min}..${grace.max}`);
  const match = isObject(raw.match) ? validateMatch(raw.match, problems) : null;
  if (!isObject(raw.match)) problems.push('match: expected an object');
  else if (problems.length === 0 && !match!.agents && !match!.flags && match!.sessionEnded === undefined)
    problems.push(
      'match: needs at least one of agents, flags or sessionEnded (a process is never stopped for being adopted by PID 1 alone)',
    );
  if (problems.length > 0) {
    for (const p of problems) errors.push(`${where} refused: ${p}`);
    return null;
  }
  const rule: PolicyRule = { name: raw.name, match: match!, action: raw.action as PolicyRule['action'] };
  if (raw.graceMs !== undefined) rule.graceMs = raw.graceMs as number;
  if (raw.enabled !== undefined) rule.enabled = raw.enabled as boolean;
  return rule;
}

function nonNegative(value: unknown, key: string, problems: string[]): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    problems.push(`match.${key}: expected a number >= 0, got ${JSON.stringify(value)}`);
    return undefined;
  }
  return value;
}

function strings(value: unknown, key: string, problems: string[]): string[] | undefined {
  if (value === undefined) return undefined;
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    value.some((v) => typeof v !== 'string' || v.length === 0 || v.length > 500)
  ) {
    problems.push(`match.${key}: expected a non-empty list of non-empty strings`);
    return undefined;
  }
  return value as string[];
}

function validateMatch(raw: Record<string, unknown>, problems: string[]): PolicyMatch {
  const match: PolicyMatch = {};
  for (const key of Object.keys(raw))
    if (!MATCH_KEYS.includes(key)) problems.push(`match.${key}: unknown key`);
  const agents = strings(raw.agents, 'agents', problems);
  if (agents) match.agents = agents;
  const flags = strings(raw.flags, 'flags', problems);
  if (flags) {
    const unknown = flags.filter((f) => !(POLICY_FLAGS as readonly string[]).includes(f));
    if (unknown.length > 0)
      problems.push(
        `match.flags: unknown flag ${JSON.stringify(unknown[0])} (known: ${POLICY_FLAGS.join(', ')})`,
      );
    else match.flags = flags;
  }
  for (const key of ['minAgeSeconds', 'minCpuSeconds', 'minMemoryMegabytes'] as const) {
    const n = nonNegative(raw[key], key, problems);
    if (n !== undefined) match[key] = n;
  }
  if (raw.sessionEnded !== undefined) {
    if (typeof raw.sessionEnded === 'boolean') match.sessionEnded = raw.sessionEnded;
    else problems.push(`match.sessionEnded: expected true or false, got ${JSON.stringify(raw.sessionEnded)}`);
  }
  const patterns = strings(raw.commandPatterns, 'commandPatterns', problems);
  if (patterns) {
    const bad = patterns.map((p) => [p, whyNotLinear(p)] as const).find(([, why]) => why !== null);
    if (bad) problems.push(`match.commandPatterns: ${JSON.stringify(bad[0])} refused: ${bad[1]}`);
    else match.commandPatterns = patterns;
  }
  if (raw.ports !== undefined) {
    if (
      !Array.isArray(raw.ports) ||
      raw.ports.length === 0 ||
      raw.ports.some((p) => typeof p !== 'number' || !Number.isInteger(p) || p < 1 || p > 65_535)
    )
      problems.push('match.ports: expected a non-empty list of port numbers (1..65535)');
    else match.ports = raw.ports as number[];
  }
  return match;
}
