import type { AgentSignatureConfig, Settings } from '../../../shared/model';
import { NUMERIC_SETTINGS, type NumericSetting } from '../../../shared/settings-table';

export interface SettingsForm {
  pollIntervalMs: string;
  cpuPercent: string;
  windowSeconds: string;
  graceMs: string;
  notificationsEnabled: boolean;
  agentsJson: string;
}

export type SettingsField = Exclude<keyof SettingsForm, 'notificationsEnabled'>;
export type FieldErrors = Partial<Record<SettingsField, string>>;

export type ParsedSettings = { ok: true; patch: Partial<Settings> } | { ok: false; errors: FieldErrors };

/** The bounds the core enforces, so the form never accepts what loading the config would reject. */
export const LIMITS = NUMERIC_SETTINGS;

export function settingsToForm(settings: Settings): SettingsForm {
  return {
    pollIntervalMs: String(settings.pollIntervalMs),
    cpuPercent: String(settings.runaway.cpuPercent),
    windowSeconds: String(settings.runaway.windowSeconds),
    graceMs: String(settings.teardown.graceMs),
    notificationsEnabled: settings.notifications.enabled,
    agentsJson: JSON.stringify(settings.agents, null, 2),
  };
}

function parseNumber(text: string, { label, min, max, integer }: NumericSetting): number | string {
  const trimmed = text.trim();
  const value = Number(trimmed);
  if (trimmed === '' || !Number.isFinite(value)) return `${label} must be a number.`;
  if (integer && !Number.isInteger(value)) return `${label} must be a whole number.`;
  if (value < min || value > max) return `${label} must be between ${min} and ${max}.`;
  return value;
}

const STRING_LIST_KEYS = ['comm', 'commandPatterns', 'envMarkers', 'toolCallPatterns'] as const;
const PATTERN_KEYS = new Set<string>(['commandPatterns', 'toolCallPatterns']);
const KNOWN_KEYS = new Set<string>(['name', 'pidEnv', ...STRING_LIST_KEYS]);

function signatureError(entry: unknown, index: number, seen: Set<string>): string | null {
  const where = `Signature ${index + 1}`;
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    return `${where} must be an object.`;
  const record = entry as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !KNOWN_KEYS.has(key));
  if (unknown.length > 0) return `${where} has unknown field ${unknown.map((k) => `"${k}"`).join(', ')}.`;
  if (typeof record.name !== 'string' || record.name.trim() === '') return `${where} needs a "name".`;
  const named = `${where} ("${record.name}")`;
  if (seen.has(record.name)) return `${named} repeats a name used above.`;
  seen.add(record.name);
  if (record.pidEnv !== undefined && (typeof record.pidEnv !== 'string' || record.pidEnv === '')) {
    return `${named}: "pidEnv" must be a non-empty string.`;
  }
  let matchers = 0;
  for (const key of STRING_LIST_KEYS) {
    const list = record[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.some((item) => typeof item !== 'string' || item === '')) {
      return `${named}: "${key}" must be a list of non-empty strings.`;
    }
    matchers += list.length;
    if (!PATTERN_KEYS.has(key)) continue;
    for (const pattern of list as string[]) {
      try {
        new RegExp(pattern);
      } catch (error) {
        return `${named}: "${key}" has an invalid regular expression /${pattern}/ (${(error as Error).message}).`;
      }
    }
  }
  if (matchers === 0) {
    return `${named} needs at least one of "comm", "commandPatterns", "envMarkers" or "toolCallPatterns".`;
  }
  return null;
}

export function parseAgents(text: string): AgentSignatureConfig[] | string {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    return `Agent signatures are not valid JSON: ${(error as Error).message}`;
  }
  if (!Array.isArray(value)) return 'Agent signatures must be a JSON array of objects.';
  const seen = new Set<string>();
  for (const [index, entry] of value.entries()) {
    const error = signatureError(entry, index, seen);
    if (error) return error;
  }
  return value as AgentSignatureConfig[];
}

/** Checks the form and builds the `settings:set` patch, or says what is wrong field by field. */
export function parseSettingsForm(form: SettingsForm, current: Settings): ParsedSettings {
  const errors: FieldErrors = {};
  const pick = <T>(field: SettingsField, value: T | string): T | undefined => {
    if (typeof value === 'string') {
      errors[field] = value;
      return undefined;
    }
    return value;
  };
  const pollIntervalMs = pick<number>(
    'pollIntervalMs',
    parseNumber(form.pollIntervalMs, LIMITS.pollIntervalMs),
  );
  const cpuPercent = pick<number>('cpuPercent', parseNumber(form.cpuPercent, LIMITS.cpuPercent));
  const windowSeconds = pick<number>('windowSeconds', parseNumber(form.windowSeconds, LIMITS.windowSeconds));
  const graceMs = pick<number>('graceMs', parseNumber(form.graceMs, LIMITS.graceMs));
  const agents = pick<AgentSignatureConfig[]>('agentsJson', parseAgents(form.agentsJson));

  if (
    pollIntervalMs === undefined ||
    cpuPercent === undefined ||
    windowSeconds === undefined ||
    graceMs === undefined ||
    agents === undefined
  ) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    patch: {
      pollIntervalMs,
      runaway: { cpuPercent, windowSeconds },
      teardown: { graceMs },
      notifications: { enabled: form.notificationsEnabled, pausedUntil: current.notifications.pausedUntil },
      agents,
    },
  };
}
