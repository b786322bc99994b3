import type { HookAgentStatus, HooksChangeView } from '../../../shared/hooks';
import { HOOK_AGENT_SPECS, type HookAgent } from './hook-agents';
import { hookCommand } from './hook-command';
import { missingHookProgram } from './hook-program-check';
import { protectSecretSettings, readSettingsText, writeSettingsText } from './settings-file';
import { resolveDataDir } from '../storage/data-dir';
import { chooseHookClient } from './hook-client-choice';
import {
  HTTP_HOOKS_UNSAFE,
  httpHooksRefusal,
  httpHookPortUsable,
  privilegedHookPort,
} from './http-hooks-port';
import {
  ensureHttpHookEndpoint,
  HOOK_TOKEN_HEADER,
  hookUrl,
  newHookEndpoint,
  peekHookEndpoint,
  type HookEndpoint,
} from './hook-endpoint';
import {
  installedEvents,
  installedHttpTokens,
  mergeHooks,
  parseSettings,
  SettingsError,
  unmergeHooks,
  type CorralHandler,
} from './settings-merge';
import { lineDiff } from './text-diff';

export interface HooksPlace {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
}

export type HooksChange = HooksChangeView;

function change(
  agent: HookAgent,
  place: HooksPlace,
  transform: (text: string, path: string) => string,
  dryRun: boolean,
  holdsSecret = false,
  notice?: string,
): HooksChange {
  const spec = HOOK_AGENT_SPECS[agent];
  const path = spec.settingsPath(place.env, place.home);
  const noticed = notice ? { notice } : {};
  try {
    const { text, exists } = readSettingsText(path);
    const after = transform(text, path);
    const changed = after !== text && (exists || after.trim() !== '');
    const diff = changed ? lineDiff(text, after) : '';
    const backup = changed && !dryRun ? writeSettingsText(path, after, { holdsSecret }) : null;
    if (!changed && !dryRun && exists && holdsSecret) protectSecretSettings(path);
    return { agent, path, changed, diff, backup, ...noticed };
  } catch (err) {
    const message = err instanceof SettingsError ? err.message : `${path}: ${(err as Error).message}`;
    return { agent, path, changed: false, diff: '', backup: null, error: message, ...noticed };
  }
}

/** How long an agent waits for the running Corral's http answer, in seconds (the agents' unit). */
export const HTTP_HOOK_TIMEOUT_S = 2;

/** The events Corral hooks for this agent: with http hooks, only those the service answers; else its command events. */
export function wantedEvents(agent: HookAgent, http = false): string[] {
  const spec = HOOK_AGENT_SPECS[agent];
  if (http && spec.httpEvents) return [...spec.httpEvents];
  return spec.commandEvents ? [...spec.commandEvents] : spec.events.map((e) => e.event);
}

/**
 * What Corral installs for one event: an http hook to the running Corral, the hook client command
 * (`clientPrefix`: hook-client-choice.ts, which falls back to the one-shot hook), or nothing
 * (null: an older install's hook on that event is removed, the user's own stay).
 */
export function corralHandler(
  agent: HookAgent,
  event: string,
  clientPrefix: string,
  endpoint: () => HookEndpoint,
  wantHttp = false,
): CorralHandler | null {
  if (!wantedEvents(agent, wantHttp).includes(event)) return null;
  if (!wantHttp || !HOOK_AGENT_SPECS[agent].httpEvents) {
    return { type: 'command', command: hookCommand(clientPrefix, agent, event) };
  }
  const { port, token } = endpoint();
  return {
    type: 'http',
    url: hookUrl(port, agent, event),
    headers: { [HOOK_TOKEN_HEADER]: token },
    timeout: HTTP_HOOK_TIMEOUT_S,
  };
}

/** What a dry run shows for http hooks: the endpoint there is when root alone may bind its port, else a fresh one. */
function httpEndpointShown(existing: HookEndpoint | null): HookEndpoint {
  return existing && httpHookPortUsable(existing.port)
    ? existing
    : { ...newHookEndpoint(), port: privilegedHookPort() };
}

export function installHooks(
  agent: HookAgent,
  place: HooksPlace,
  prefix: string,
  dryRun: boolean,
  /**
   * Http hooks to the running Corral (Claude Code only; `corral hooks install --http`): no process per
   * call, but no note at all while no Corral service runs, so they are chosen, never the default.
   */
  http = false,
): HooksChange {
  const spec = HOOK_AGENT_SPECS[agent];
  const dataDir = resolveDataDir(place.env, process.platform, place.home);
  const settingsPath = spec.settingsPath(place.env, place.home);
  let notice: string | undefined;
  if (http && spec.httpEvents) {
    const refusal = httpHooksRefusal();
    if (refusal) return { agent, path: settingsPath, changed: false, diff: '', backup: null, error: refusal };
  }
  // A dry run writes nothing, not even the endpoint: it shows the endpoint there is, else one that
  // install would create (its port and token are then chosen afresh).
  let shown: HookEndpoint | null = null;
  const endpoint = (): HookEndpoint =>
    dryRun ? (shown ??= httpEndpointShown(peekHookEndpoint(dataDir))) : ensureHttpHookEndpoint(dataDir);
  if (http && spec.httpEvents) {
    notice = `${HTTP_HOOKS_UNSAFE}. They post to 127.0.0.1:${endpoint().port}, a port below net.ipv4.ip_unprivileged_port_start that only root may bind, so no other user can take it.`;
  }
  let clientPrefix = prefix;
  if (spec.viaClient) {
    const client = chooseHookClient(dataDir, prefix, place.env, dryRun);
    clientPrefix = client.prefix;
    if (client.notice && !http) notice = client.notice;
  }
  return change(
    agent,
    place,
    (text, path) =>
      mergeHooks(text, spec, (e) => corralHandler(agent, e, clientPrefix, endpoint, http), path),
    dryRun,
    // An http hook carries the token in the settings file.
    http && spec.httpEvents !== undefined,
    notice,
  );
}

export function uninstallHooks(agent: HookAgent, place: HooksPlace, dryRun: boolean): HooksChange {
  const spec = HOOK_AGENT_SPECS[agent];
  return change(agent, place, (text, path) => unmergeHooks(text, spec, path), dryRun);
}

export type HooksStatus = Omit<HookAgentStatus, 'label' | 'seen'>;

export function hooksStatus(agent: HookAgent, place: HooksPlace): HooksStatus {
  const spec = HOOK_AGENT_SPECS[agent];
  const path = spec.settingsPath(place.env, place.home);
  try {
    const { text } = readSettingsText(path);
    const settings = parseSettings(text, spec, path);
    const found = installedEvents(settings, spec);
    const http = [...found.values()].some((command) => command.startsWith('http://'));
    // An older install's command hooks on every event (PreToolUse too) still work: complete as well.
    const complete = [wantedEvents(agent, http), ...(http ? [] : [spec.events.map((e) => e.event)])].some(
      (wanted) => wanted.every((e) => found.has(e)) && found.size === wanted.length,
    );
    const state = found.size === 0 ? 'absent' : complete ? 'installed' : 'partial';
    const missingCommand = [...found.values()]
      .filter((command) => !command.startsWith('http://'))
      .map((command) => missingHookProgram(command, place.env))
      .find((m) => m !== null);
    return {
      agent,
      path,
      state,
      events: Object.fromEntries(found),
      ...(missingCommand ? { missingCommand } : {}),
      ...(http && staleHttpToken(installedHttpTokens(settings, spec, HOOK_TOKEN_HEADER), place)
        ? { staleToken: true }
        : {}),
    };
  } catch (err) {
    return { agent, path, state: 'invalid', events: {}, error: (err as Error).message };
  }
}

/**
 * Installed http hooks send a token the endpoint no longer holds (the endpoint was made again since):
 * the running Corral refuses them, so they bring no note until `hooks install` writes the current one.
 */
function staleHttpToken(tokens: ReadonlySet<string>, place: HooksPlace): boolean {
  if (tokens.size === 0) return false;
  let endpoint: HookEndpoint | null;
  try {
    endpoint = peekHookEndpoint(resolveDataDir(place.env, process.platform, place.home));
  } catch {
    return false;
  }
  return endpoint !== null && [...tokens].some((t) => t !== endpoint.token);
}
