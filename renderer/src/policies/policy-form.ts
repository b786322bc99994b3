// One policy rule as the Settings form holds it (text as typed), and back to a rule through the
// validator the core loads the config with (shared/policy-validation.ts): the form says exactly what
// the core would refuse, in the core's words.
import type { PolicyRule } from '../../../shared/model';
import { validatePolicies } from '../../../shared/policy-validation';
import { FLAG_WORDS } from '../../../shared/words/flag-words';

export interface RuleForm {
  name: string;
  action: PolicyRule['action'];
  enabled: boolean;
  agents: string[];
  flags: string[];
  /** '' any session; 'ended' or 'running'. */
  session: '' | 'ended' | 'running';
  /** One RE2 pattern a line. */
  commandPatterns: string;
  /** Port numbers separated by commas or spaces. */
  ports: string;
  minAgeSeconds: string;
  minCpuSeconds: string;
  minMemoryMegabytes: string;
  graceMs: string;
}

/** A form field, or 'rule' for what belongs to no one field. */
export type RuleField = keyof RuleForm | 'rule';
export type RuleErrors = Partial<Record<RuleField, string[]>>;

export const EMPTY_RULE: RuleForm = {
  name: '',
  action: 'notify',
  enabled: true,
  agents: [],
  flags: [],
  session: '',
  commandPatterns: '',
  ports: '',
  minAgeSeconds: '',
  minCpuSeconds: '',
  minMemoryMegabytes: '',
  graceMs: '',
};

const text = (n: number | undefined): string => (n === undefined ? '' : String(n));

export function ruleToForm(rule: PolicyRule): RuleForm {
  const m = rule.match;
  return {
    name: rule.name,
    action: rule.action,
    enabled: rule.enabled !== false,
    agents: [...(m.agents ?? [])],
    flags: [...(m.flags ?? [])],
    session: m.sessionEnded === undefined ? '' : m.sessionEnded ? 'ended' : 'running',
    commandPatterns: (m.commandPatterns ?? []).join('\n'),
    ports: (m.ports ?? []).join(', '),
    minAgeSeconds: text(m.minAgeSeconds),
    minCpuSeconds: text(m.minCpuSeconds),
    minMemoryMegabytes: text(m.minMemoryMegabytes),
    graceMs: text(rule.graceMs),
  };
}

/** A number when the text is one; the text itself otherwise, for the validator to name. */
function numberOrText(value: string): number | string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : trimmed;
}

/** The rule as the config file would hold it, before validation (what the JSON view shows). */
export function formToRaw(form: RuleForm): Record<string, unknown> {
  const match: Record<string, unknown> = {};
  if (form.agents.length > 0) match.agents = form.agents;
  if (form.flags.length > 0) match.flags = form.flags;
  if (form.session !== '') match.sessionEnded = form.session === 'ended';
  const patterns = form.commandPatterns
    .split('\n')
    .map((p) => p.trim())
    .filter(Boolean);
  if (patterns.length > 0) match.commandPatterns = patterns;
  const ports = form.ports.split(/[\s,]+/).filter(Boolean);
  if (ports.length > 0) match.ports = ports.map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  for (const key of ['minAgeSeconds', 'minCpuSeconds', 'minMemoryMegabytes'] as const) {
    const n = numberOrText(form[key]);
    if (n !== undefined) match[key] = n;
  }
  const raw: Record<string, unknown> = { name: form.name.trim(), match, action: form.action };
  const grace = numberOrText(form.graceMs);
  if (grace !== undefined && form.action === 'stop') raw.graceMs = grace;
  if (!form.enabled) raw.enabled = false;
  return raw;
}

// `policies[2] "name" refused: match.ports: expected …`, `policies[2].name: expected …`,
// `policies[2] "name": another rule already has this name`.
const RULE_ERROR = /^policies\[(\d+)\](\.name)?(?: "[^"]*")?(?: refused)?: (?:([A-Za-z.]+): )?(.*)$/;

const FIELD_OF: Record<string, RuleField> = {
  name: 'name',
  action: 'action',
  enabled: 'enabled',
  graceMs: 'graceMs',
  'match.agents': 'agents',
  'match.flags': 'flags',
  'match.sessionEnded': 'session',
  'match.commandPatterns': 'commandPatterns',
  'match.ports': 'ports',
  'match.minAgeSeconds': 'minAgeSeconds',
  'match.minCpuSeconds': 'minCpuSeconds',
  'match.minMemoryMegabytes': 'minMemoryMegabytes',
};

/** The core's errors for the rule at `index`, by the form field each is about. */
export function errorsForRule(errors: readonly string[], index: number): RuleErrors {
  const byField: RuleErrors = {};
  for (const error of errors) {
    const m = RULE_ERROR.exec(error);
    if (!m || Number(m[1]) !== index) continue;
    const [, , nameError, key, message] = m;
    const field: RuleField = nameError
      ? 'name'
      : key && FIELD_OF[key]
        ? FIELD_OF[key]
        : message!.includes('another rule already has this name')
          ? 'name'
          : 'rule';
    const said = field === 'rule' && key ? `${key}: ${message}` : message!;
    (byField[field] ??= []).push(said);
  }
  return byField;
}

export type RuleCheck = { ok: true; rules: PolicyRule[] } | { ok: false; errors: RuleErrors };

/**
 * The rule list with `form` at `index` (appended when index is the list's length), checked as the
 * core checks the config; the rules to save, or the edited rule's errors by field.
 */
export function checkRule(rules: readonly PolicyRule[], index: number, form: RuleForm): RuleCheck {
  const raw: unknown[] = rules.map((r) => r as unknown);
  raw[index] = formToRaw(form);
  const errors: string[] = [];
  const checked = validatePolicies(raw, errors) ?? [];
  const mine = errorsForRule(errors, index);
  if (Object.keys(mine).length > 0) return { ok: false, errors: mine };
  if (errors.length > 0) return { ok: false, errors: { rule: errors } };
  return { ok: true, rules: checked };
}

/** The JSON view's text checked as the config file would be: the rules, or every error. */
export function checkPoliciesJson(
  json: string,
): { ok: true; rules: PolicyRule[] } | { ok: false; errors: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(json.trim() === '' ? '[]' : json);
  } catch (error) {
    return { ok: false, errors: [`Not valid JSON: ${(error as Error).message}`] };
  }
  const errors: string[] = [];
  const rules = validatePolicies(value, errors);
  return errors.length > 0 || !rules ? { ok: false, errors } : { ok: true, rules };
}

const FLAG_TEXT: Record<string, string> = { ...FLAG_WORDS };

/** What a rule matches, in words: `claude-code; orphaned + runaway; port 3000; older than 60 s`. */
export function describeMatch(rule: PolicyRule): string {
  const m = rule.match;
  const parts: string[] = [];
  if (m.agents) parts.push(m.agents.join(' or '));
  if (m.flags) parts.push(m.flags.map((f) => FLAG_TEXT[f] ?? f).join(' + '));
  if (m.sessionEnded !== undefined) parts.push(m.sessionEnded ? 'session ended' : 'session running');
  if (m.commandPatterns) parts.push(`command /${m.commandPatterns.join('/ or /')}/`);
  if (m.ports) parts.push(`port ${m.ports.join(' or ')}`);
  if (m.minAgeSeconds !== undefined) parts.push(`older than ${m.minAgeSeconds} s`);
  if (m.minCpuSeconds !== undefined) parts.push(`CPU ≥ ${m.minCpuSeconds} s`);
  if (m.minMemoryMegabytes !== undefined) parts.push(`memory ≥ ${m.minMemoryMegabytes} MB`);
  return parts.join('; ');
}
