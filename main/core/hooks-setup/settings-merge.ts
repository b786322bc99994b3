import {
  findNodeAtLocation,
  parse,
  parseTree,
  printParseErrorCode,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import type { HookAgentSpec, HookEventSpec } from './hook-agents';
import { CORRAL_SCRIPT } from './hook-command';

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

/** `… corral[-hook[-native]][.js|.mjs|.ts]['"] hook <agent> <event>` at the end of a command string. */
const CORRAL_HOOK_COMMAND = new RegExp(`${CORRAL_SCRIPT}['"]?\\s+hook\\s+([a-z-]+)\\s+([A-Za-z]+)\\s*$`);

export function corralHookOf(command: unknown): { agent: string; event: string } | null {
  if (typeof command !== 'string') return null;
  const m = CORRAL_HOOK_COMMAND.exec(command);
  return m ? { agent: m[1]!, event: m[2]! } : null;
}

/** Corral's http hook: `http://127.0.0.1:<port>/hook/<agent>/<event>` (hook-endpoint.ts). */
const CORRAL_HOOK_URL = /^http:\/\/127\.0\.0\.1:\d{1,5}\/hook\/([a-z-]+)\/([A-Za-z]+)$/;

function corralHandlerOf(h: unknown): { agent: string; event: string } | null {
  if (typeof h !== 'object' || h === null) return null;
  const { type, command, url } = h as { type?: unknown; command?: unknown; url?: unknown };
  if (type === 'command') return corralHookOf(command);
  if (type !== 'http' || typeof url !== 'string') return null;
  const m = CORRAL_HOOK_URL.exec(url);
  return m ? { agent: m[1]!, event: m[2]! } : null;
}

function isCorralGroup(group: unknown, agent: string, event: string): boolean {
  if (typeof group !== 'object' || group === null || Array.isArray(group)) return false;
  const hooks = (group as MatcherGroup).hooks;
  if (!Array.isArray(hooks) || hooks.length !== 1) return false;
  const found = corralHandlerOf(hooks[0]);
  return found !== null && found.agent === agent && found.event === event;
}

/** One hook handler Corral installs: the hook command, or (Claude Code) an http hook to the running Corral. */
export type CorralHandler =
  | { type: 'command'; command: string }
  | { type: 'http'; url: string; headers: Record<string, string>; timeout: number };

export function corralGroup(spec: HookEventSpec, handler: CorralHandler | string): MatcherGroup {
  const group: MatcherGroup = {};
  if (spec.matcher !== undefined) group.matcher = spec.matcher;
  group.hooks = [typeof handler === 'string' ? { type: 'command', command: handler } : handler];
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

/** The file's indentation unit (its first indented line), two spaces when it has none. */
function indentUnit(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text);
  return m ? (m[1]!.startsWith('\t') ? '\t' : m[1]!) : '  ';
}

function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** `value` as JSON in the file's style, its later lines indented by `base`. */
function render(value: unknown, text: string, base: string): string {
  return JSON.stringify(value, null, indentUnit(text))
    .split('\n')
    .join(eolOf(text) + base);
}

/**
 * Appends `value` to the array or object `container` (an object member when `key` is given), as a
 * text insertion after its last child: nothing else in the file is reformatted. jsonc-parser's own
 * `modify` with formatting re-indents whole neighbouring blocks, so only its removal is used.
 */
function append(text: string, container: Node, value: unknown, key?: string): string {
  const eol = eolOf(text);
  const children = container.children ?? [];
  const member = (base: string): string =>
    key === undefined ? render(value, text, base) : `${JSON.stringify(key)}: ${render(value, text, base)}`;
  if (children.length === 0) {
    const outer = lineIndent(text, container.offset);
    const inner = outer + indentUnit(text);
    const open = key === undefined ? '[' : '{';
    const close = key === undefined ? ']' : '}';
    const body = `${open}${eol}${inner}${member(inner)}${eol}${outer}${close}`;
    return text.slice(0, container.offset) + body + text.slice(container.offset + container.length);
  }
  const last = children[children.length - 1]!;
  const first = children[0]!;
  const lastEnd = last.offset + last.length;
  // The indentation of the existing children (their line's, when each starts a line).
  const lineStart = text.lastIndexOf('\n', first.offset - 1) + 1;
  const startsLine = text.slice(lineStart, first.offset).trim() === '';
  const base = startsLine
    ? lineIndent(text, first.offset)
    : lineIndent(text, container.offset) + indentUnit(text);
  return `${text.slice(0, lastEnd)},${eol}${base}${member(base)}${text.slice(lastEnd)}`;
}

/**
 * Removes the array element or object member at `path`, the exact inverse of `append`: from the end
 * of the previous sibling (its comma and line break included) to the end of this one.
 */
function removeAt(text: string, path: (string | number)[]): string {
  const root = parseTree(text)!;
  const node = findNodeAtLocation(root, path)!;
  // An object member is its property node (key and value); an array element is the value itself.
  const item = node.parent?.type === 'property' ? node.parent : node;
  const container = item.parent!;
  const siblings = container.children ?? [];
  const i = siblings.indexOf(item);
  if (siblings.length === 1) {
    const empty = container.type === 'array' ? '[]' : '{}';
    return text.slice(0, container.offset) + empty + text.slice(container.offset + container.length);
  }
  if (i > 0) {
    const prev = siblings[i - 1]!;
    return text.slice(0, prev.offset + prev.length) + text.slice(item.offset + item.length);
  }
  return text.slice(0, item.offset) + text.slice(siblings[1]!.offset);
}

/** Adds `group` to `hooks.<event>`, creating the list and the `hooks` object when missing. */
function addGroup(text: string, event: string, group: unknown): string {
  const root = parseTree(text)!;
  const list = findNodeAtLocation(root, ['hooks', event]);
  if (list) return append(text, list, group);
  const hooks = findNodeAtLocation(root, ['hooks']);
  if (hooks) return append(text, hooks, [group], event);
  return append(text, root, { [event]: [group] }, 'hooks');
}

/** Which of the agent's events already carry Corral's hook, with the command each runs (or the url it posts to). */
export function installedEvents(settings: Record<string, unknown>, spec: HookAgentSpec): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of spec.events) {
    for (const g of eventList(settings, e.event)) {
      if (isCorralGroup(g, spec.agent, e.event)) {
        const h = ((g as MatcherGroup).hooks as { command?: string; url?: string }[])[0]!;
        out.set(e.event, h.command ?? h.url ?? '');
      }
    }
  }
  return out;
}

/** The tokens Corral's installed http hooks send (their `X-Corral-Token`-style header), each once. */
export function installedHttpTokens(
  settings: Record<string, unknown>,
  spec: HookAgentSpec,
  header: string,
): Set<string> {
  const tokens = new Set<string>();
  for (const e of spec.events) {
    for (const g of eventList(settings, e.event)) {
      if (!isCorralGroup(g, spec.agent, e.event)) continue;
      const h = ((g as MatcherGroup).hooks as { url?: string; headers?: Record<string, unknown> }[])[0]!;
      const token = h.url ? h.headers?.[header] : undefined;
      if (typeof token === 'string') tokens.add(token);
    }
  }
  return tokens;
}

/**
 * The settings text with Corral's groups present exactly once per event, running `handlerFor(event)`
 * (a command line, or a handler); an event whose handler is null has no Corral group (Claude Code's
 * PreToolUse once its hooks are http). An existing Corral group with another handler (an older install
 * path, a command replaced by an http hook) is replaced.
 */
export function mergeHooks(
  text: string,
  spec: HookAgentSpec,
  handlerFor: (event: string) => CorralHandler | string | null,
  path: string,
): string {
  let out = text.trim() === '' ? '{}\n' : text;
  for (const e of spec.events) {
    const settings = parseSettings(out, spec, path);
    const list = eventList(settings, e.event);
    const handler = handlerFor(e.event);
    const wanted = handler === null ? null : corralGroup(e, handler);
    const mine = list.map((g, i) => (isCorralGroup(g, spec.agent, e.event) ? i : -1)).filter((i) => i >= 0);
    if (wanted && mine.length === 1 && JSON.stringify(list[mine[0]!]) === JSON.stringify(wanted)) continue;
    if (!wanted && mine.length === 0) continue;
    // Remove stale or duplicate Corral groups (highest index first), then append one.
    if (!wanted && mine.length === list.length) out = removeAt(out, ['hooks', e.event]);
    else for (const i of mine.reverse()) out = removeAt(out, ['hooks', e.event, i]);
    if (wanted) out = addGroup(out, e.event, wanted);
  }
  return out;
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
    if (mine.length === list.length) out = removeAt(out, ['hooks', e.event]);
    else for (const i of mine.reverse()) out = removeAt(out, ['hooks', e.event, i]);
  }
  const hooks = parseSettings(out, spec, path).hooks;
  if (hooks !== undefined && Object.keys(hooks as object).length === 0 && text !== out) {
    out = removeAt(out, ['hooks']);
  }
  return out;
}
