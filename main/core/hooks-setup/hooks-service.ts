import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import type { HooksChangeView, HooksInstallRequest, HooksOverview } from '../../../shared/hooks';
import type { HookEndpointView } from '../../../shared/hook-endpoint';
import { HOOK_AGENTS, HOOK_AGENT_SPECS } from './hook-agents';
import { hookClientPaths } from './hook-client-choice';
import { probeHookEndpoint } from './hook-endpoint-probe';
import { hooksAskingService } from './hooks-asking-service';
import { hooksStatus, installHooks, type HooksPlace } from './hooks-setup';
import { shellQuote } from './shell-quote';

/** The command line prefix agents run for Corral's hooks (shell syntax), or why there is none. */
export type HookCommandResolution =
  | {
      command: string;
      /** The command that runs the CLI in a terminal, when it is not `command` itself. */
      cli?: string;
    }
  | { problem: string };

/**
 * What the desktop's hooks run: `CORRAL_HOOK_COMMAND` when set, else the `corral` CLI found on PATH
 * (by its absolute path, quoted for the shell the agents run hooks in). The desktop app itself cannot be the hook: packaged builds turn the
 * RunAsNode fuse off (electron-builder.yml), so its binary does not run the CLI.
 */
export function resolveHookCommand(env: Readonly<Record<string, string | undefined>>): HookCommandResolution {
  const explicit = env.CORRAL_HOOK_COMMAND?.trim();
  if (explicit) return { command: explicit };
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, 'corral');
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return { command: shellQuote(candidate) };
    } catch {
      // Not here.
    }
  }
  return {
    problem:
      'the corral command was not found on PATH: install the CLI (npm install -g corral) or set CORRAL_HOOK_COMMAND, then look again',
  };
}

/** Every agent's hook status, marked when Corral has seen that agent. */
export function hooksOverview(
  place: HooksPlace,
  seenAgents: ReadonlySet<string>,
  command: HookCommandResolution,
): HooksOverview {
  return {
    agents: HOOK_AGENTS.map((agent) => {
      const status = hooksStatus(agent, place);
      return {
        ...status,
        label: HOOK_AGENT_SPECS[agent].label,
        seen: seenAgents.has(agent),
        installed: existsSync(dirname(status.path)),
      };
    }),
    command: 'command' in command ? command.command : null,
    cliCommand: 'command' in command ? (command.cli ?? command.command) : null,
    ...('problem' in command ? { commandProblem: command.problem } : {}),
  };
}

/** Installs (or, with dryRun, shows) one agent's hooks; the settings file is backed up before writing. */
export function installAgentHooks(
  request: HooksInstallRequest,
  place: HooksPlace,
  command: HookCommandResolution,
): HooksChangeView {
  if ('problem' in command) {
    const path = HOOK_AGENT_SPECS[request.agent].settingsPath(place.env, place.home);
    return { agent: request.agent, path, changed: false, diff: '', backup: null, error: command.problem };
  }
  return installHooks(request.agent, place, command.command, request.dryRun);
}

/** The hook service's state as `corral hooks status` reports it: the endpoint's port probed, and who asks it. */
export async function hookEndpointView(dataDir: string, place: HooksPlace): Promise<HookEndpointView> {
  const statuses = HOOK_AGENTS.map((agent) => hooksStatus(agent, place));
  const asking = hooksAskingService(statuses, hookClientPaths(dataDir));
  return { ...(await probeHookEndpoint(dataDir, { http: asking.http.length > 0 })), asking };
}
