import type { HookAgentStatus, HooksChangeView } from '../../../shared/hooks';
import { HOOK_AGENT_SPECS, type HookAgent } from './hook-agents';
import { hookCommand } from './hook-command';
import { missingHookProgram } from './hook-program-check';
import { readSettingsText, writeSettingsText } from './settings-file';
import { installedEvents, mergeHooks, parseSettings, SettingsError, unmergeHooks } from './settings-merge';
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
): HooksChange {
  const spec = HOOK_AGENT_SPECS[agent];
  const path = spec.settingsPath(place.env, place.home);
  try {
    const { text, exists } = readSettingsText(path);
    const after = transform(text, path);
    const changed = after !== text && (exists || after.trim() !== '');
    const diff = changed ? lineDiff(text, after) : '';
    const backup = changed && !dryRun ? writeSettingsText(path, after) : null;
    return { agent, path, changed, diff, backup };
  } catch (err) {
    const message = err instanceof SettingsError ? err.message : `${path}: ${(err as Error).message}`;
    return { agent, path, changed: false, diff: '', backup: null, error: message };
  }
}

export function installHooks(
  agent: HookAgent,
  place: HooksPlace,
  prefix: string,
  dryRun: boolean,
): HooksChange {
  const spec = HOOK_AGENT_SPECS[agent];
  return change(
    agent,
    place,
    (text, path) => mergeHooks(text, spec, (e) => hookCommand(prefix, agent, e), path),
    dryRun,
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
    const state = found.size === 0 ? 'absent' : found.size === spec.events.length ? 'installed' : 'partial';
    const missingCommand = [...found.values()]
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
