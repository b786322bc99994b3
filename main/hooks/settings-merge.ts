import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { HookAgentSpec, HookEventSpec } from './hook-agents';

/**
 * Merging Corral's hook entries into an agent's settings text, and taking them out again, as text
 * edits (jsonc-parser's `modify`): every other byte of the file, comments and formatting included,
 * stays as it was. Pure: text in, text out.
 *
 * Corral's entry for one event is one matcher group of its own, `{matcher?, hooks: [{type:
 * "command", command: "<…> hook <agent> <event>"}]}`, never a hook slipped into someone else's group,
 * so uninstall can remove exactly what install added.
 */

export class SettingsError extends Error {}

interface MatcherGroup {
  matcher?: unknown;
  hooks?: unknown;
}

/** `… corral[.js|.mjs|.ts]['"] hook <agent> <event>` at the end of a command string. */
const CORRAL_HOOK_COMMAND = /corral(?:\.[cm]?[jt]s)?['"]?\s+hook\s+([a-z-]+)\s+([A-Za-z]+)\s*$/;

export function corralHookOf(command: unknown): { agent: string; event: string } | null {
  if (typeof command !== 'string') return null;
  const m = CORRAL_HOOK_COMMAND.exec(command);
  return m ? { agent: m[1]!, event: m[2]! } : null;
}

function isCorralGroup(group: unknown, agent: string, event: string): boolean {
  if (typeof group !== 'object' || group === null || Array.isArray(group)) return false;
  const hooks = (group as MatcherGroup).hooks;
  if (!Array.isArray(hooks) || hooks.length !== 1) return false;
  const h = hooks[0] as { type?: unknown; command?: unknown } | null;
  const found = h && h.type === 'command' ? corralHookOf(h.command) : null;
  return found !== null && found.agent === agent && found.event === event;
}

export function corralGroup(spec: HookEventSpec, command: string): MatcherGroup {
  const group: MatcherGroup = {};
  if (spec.matcher !== undefined) group.matcher = spec.matcher;
  group.hooks = [{ type: 'command', command }];
  return group;
}

/** Parses the settings text, or throws SettingsError saying why it is left untouched. */
export function parseSettings(text: string, spec: HookAgentSpec, path: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, {
    disallowComments: !spec.allowsComments,
    allowTrailingComma: false,
    allowEmptyContent: false,
  });
  if (errors.length > 0) {
    const e = errors[0]!;
    const line = text.slice(0, e.offset).split('\n').length;
    throw new SettingsError(
      `${path} is not valid ${spec.allowsComments ? 'JSON (with comments)' : 'JSON'}: ${printParseErrorCode(e.error)} at line ${line}; it was left untouched`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SettingsError(`${path} does not hold a JSON object; it was left untouched`);
  }
  const hooks = (value as Record<string, unknown>).hooks;
  if (hooks !== undefined && (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks))) {
    throw new SettingsError(`${path}: "hooks" is not an object; it was left untouched`);
  }
  for (const e of spec.events) {
    const list = (hooks as Record<string, unknown> | undefined)?.[e.event];
    if (list !== undefined && !Array.isArray(list)) {
      throw new SettingsError(`${path}: "hooks.${e.event}" is not a list; it was left untouched`);
    }
  }
  return value as Record<string, unknown>;
}

function eventList(settings: Record<string, unknown>, event: string): unknown[] {
  const hooks = settings.hooks as Record<string, unknown> | undefined;
  const list = hooks?.[event];
  return Array.isArray(list) ? list : [];
}

function detectIndent(text: string): { insertSpaces: boolean; tabSize: number } {
  const m = /\n([ \t]+)"/.exec(text);
  if (m && m[1]!.startsWith('\t')) return { insertSpaces: false, tabSize: 1 };
  return { insertSpaces: true, tabSize: m ? m[1]!.length : 2 };
}

function edit(text: string, path: (string | number)[], value: unknown): string {
  const formattingOptions = { ...detectIndent(text), eol: text.includes('\r\n') ? '\r\n' : '\n' };
  return applyEdits(text, modify(text, path, value, { formattingOptions }));
}

/** Which of the agent's events already carry Corral's hook, with the command each runs. */
export function installedEvents(settings: Record<string, unknown>, spec: HookAgentSpec): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of spec.events) {
    for (const g of eventList(settings, e.event)) {
      if (isCorralGroup(g, spec.agent, e.event)) {
        out.set(e.event, ((g as MatcherGroup).hooks as { command: string }[])[0]!.command);
      }
    }
  }
  return out;
}

/**
 * The settings text with Corral's groups present exactly once per event, running `commandFor(event)`.
 * An existing Corral group with another command (an older install path) is replaced in place.
 */
export function mergeHooks(
  text: string,
  spec: HookAgentSpec,
  commandFor: (event: string) => string,
  path: string,
): string {
  let out = text.trim() === '' ? '{}\n' : text;
  for (const e of spec.events) {
    const settings = parseSettings(out, spec, path);
    const list = eventList(settings, e.event);
    const wanted = corralGroup(e, commandFor(e.event));
    const mine = list.map((g, i) => (isCorralGroup(g, spec.agent, e.event) ? i : -1)).filter((i) => i >= 0);
    if (mine.length === 1 && JSON.stringify(list[mine[0]!]) === JSON.stringify(wanted)) continue;
    // Remove stale or duplicate Corral groups (highest index first), then append one.
    for (const i of mine.reverse()) out = edit(out, ['hooks', e.event, i], undefined);
    const remaining = eventList(parseSettings(out, spec, path), e.event);
    if (remaining.length === 0 && !hasKey(parseSettings(out, spec, path), e.event)) {
      out = edit(out, ['hooks', e.event], [wanted]);
    } else {
      out = edit(out, ['hooks', e.event, remaining.length], wanted);
    }
  }
  return out;
}

function hasKey(settings: Record<string, unknown>, event: string): boolean {
  const hooks = settings.hooks as Record<string, unknown> | undefined;
  return hooks !== undefined && Object.prototype.hasOwnProperty.call(hooks, event);
}

/**
 * The settings text without Corral's groups. An event list that only Corral's group was in goes
 * too, and so does a `hooks` object left empty: install created them.
 */
export function unmergeHooks(text: string, spec: HookAgentSpec, path: string): string {
  if (text.trim() === '') return text;
  let out = text;
  for (const e of spec.events) {
    const list = eventList(parseSettings(out, spec, path), e.event);
    const mine = list.map((g, i) => (isCorralGroup(g, spec.agent, e.event) ? i : -1)).filter((i) => i >= 0);
    if (mine.length === 0) continue;
    if (mine.length === list.length) out = edit(out, ['hooks', e.event], undefined);
    else for (const i of mine.reverse()) out = edit(out, ['hooks', e.event, i], undefined);
  }
  const hooks = parseSettings(out, spec, path).hooks;
  if (hooks !== undefined && Object.keys(hooks as object).length === 0 && text !== out) {
    out = edit(out, ['hooks'], undefined);
  }
  return out;
}
