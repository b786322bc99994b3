import type { HookAgentStatus, HooksChangeView } from '../../../shared/hooks';
import { HOOK_AGENT_SPECS, type HookAgent } from './hook-agents';
import { hookCommand } from './hook-command';
import { missingHookProgram } from './hook-program-check';
import { protectSecretSettings, readSettingsText, writeSettingsText } from './settings-file';
import { resolveDataDir } from '../storage/data-dir';
import { bashProgram, hookClientPath, writeHookClient } from './hook-client-script';
import { shellQuote } from './shell-quote';
import {
  ensureHookEndpoint,
  HOOK_TOKEN_HEADER,
  hookUrl,
  newHookEndpoint,
  peekHookEndpoint,
  type HookEndpoint,
} from './hook-endpoint';
import {
  installedEvents,
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
): HooksChange {
  const spec = HOOK_AGENT_SPECS[agent];
  const path = spec.settingsPath(place.env, place.home);
  try {
    const { text, exists } = readSettingsText(path);
    const after = transform(text, path);
    const changed = after !== text && (exists || after.trim() !== '');
    const diff = changed ? lineDiff(text, after) : '';
    const backup = changed && !dryRun ? writeSettingsText(path, after, { holdsSecret }) : null;
    if (!changed && !dryRun && exists && holdsSecret) protectSecretSettings(path);
    return { agent, path, changed, diff, backup };
  } catch (err) {
    const message = err instanceof SettingsError ? err.message : `${path}: ${(err as Error).message}`;
    return { agent, path, changed: false, diff: '', backup: null, error: message };
  }
}

/** How long an agent waits for the running Corral's http answer, in seconds (the agents' unit). */
export const HTTP_HOOK_TIMEOUT_S = 2;

/** The events Corral hooks for this agent: with http hooks, only those the service answers. */
export function wantedEvents(agent: HookAgent, http = false): string[] {
  const spec = HOOK_AGENT_SPECS[agent];
  return http && spec.httpEvents ? [...spec.httpEvents] : spec.events.map((e) => e.event);
}

/**
 * What Corral installs for one event: an http hook to the running Corral, the hook client command
 * (`clientPrefix`: bash and hook-client-script.ts, which falls back to the one-shot hook), or nothing.
 */
export function corralHandler(
  agent: HookAgent,
  event: string,
  clientPrefix: string,
  endpoint: () => HookEndpoint,
  wantHttp = false,
): CorralHandler | null {
  const http = wantHttp ? HOOK_AGENT_SPECS[agent].httpEvents : undefined;
  if (!http) return { type: 'command', command: hookCommand(clientPrefix, agent, event) };
  if (!http.includes(event)) return null;
  const { port, token } = endpoint();
  return {
    type: 'http',
    url: hookUrl(port, agent, event),
    headers: { [HOOK_TOKEN_HEADER]: token },
    timeout: HTTP_HOOK_TIMEOUT_S,
  };
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
  // A dry run writes nothing, not even the endpoint: it shows the endpoint there is, else one that
  // install would create (its port and token are then chosen afresh).
  let shown: HookEndpoint | null = null;
  const endpoint = (): HookEndpoint =>
    dryRun ? (shown ??= peekHookEndpoint(dataDir) ?? newHookEndpoint()) : ensureHookEndpoint(dataDir);
  let clientPrefix = spec.viaClient
    ? `${shellQuote(bashProgram())} ${shellQuote(hookClientPath(dataDir))}`
    : prefix;
  if (spec.viaClient && !dryRun) {
    try {
      endpoint();
      writeHookClient(dataDir, prefix);
    } catch {
      // A data directory Corral may not write: the hooks run the one-shot command directly.
      clientPrefix = prefix;
    }
  }
  return change(
    agent,
    place,
    (text, path) =>
      mergeHooks(text, spec, (e) => corralHandler(agent, e, clientPrefix, endpoint, http), path),
    dryRun,
    // An http hook carries the token in the settings file.
    http && spec.httpEvents !== undefined,
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
    const found = installedEvents(parseSettings(text, spec, path), spec);
    const http = [...found.values()].some((command) => command.startsWith('http://'));
    const wanted = wantedEvents(agent, http);
    const complete = wanted.every((e) => found.has(e)) && found.size === wanted.length;
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
    };
  } catch (err) {
    return { agent, path, state: 'invalid', events: {}, error: (err as Error).message };
  }
}
