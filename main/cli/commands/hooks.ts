import { homedir } from 'node:os';
import { COMMAND_SPECS } from '../command-specs';
import { parseCommandArgs } from '../parse-command-args';
import type { Settings } from '../../../shared/model';
import { HOOK_AGENTS, HOOK_AGENT_SPECS, isHookAgent, type HookAgent } from '../../core/facade/setup';
import { hookCommandPrefix } from '../../core/facade/setup';
import { hooksStatus, installHooks, uninstallHooks, type HooksChange } from '../../core/facade/setup';
import { UsageError } from '../../common/usage-error';
import { hookClientPaths } from '../../core/facade/setup';
import { probeHookEndpoint } from '../../core/facade/setup';
import { userDataDir } from '../../core/facade/service';
import { hooksAskingService } from '../../core/facade/setup';
import { hookEndpointLine } from './hook-endpoint-line';

function agentsOf(value: string | undefined): HookAgent[] {
  if (value === undefined || value === 'all') return [...HOOK_AGENTS];
  if (!isHookAgent(value)) {
    throw new UsageError(`--agent: expected one of ${HOOK_AGENTS.join(', ')} or all, got '${value}'`);
  }
  return [value];
}

function report(c: HooksChange, verb: string, dryRun: boolean, out: (t: string) => void): void {
  const label = HOOK_AGENT_SPECS[c.agent].label;
  if (c.notice) out(`${label}: ${c.notice}`);
  if (c.error) {
    out(`${label}: ${c.error}`);
    return;
  }
  if (!c.changed) {
    out(
      `${label}: ${c.path} already ${verb === 'install' ? 'has' : 'lacks'} Corral's hooks; nothing to change.`,
    );
    return;
  }
  if (dryRun) {
    out(`${label}: would change ${c.path}:\n${c.diff}`);
    return;
  }
  const backup = c.backup ? ` (previous file kept as ${c.backup})` : '';
  out(
    `${label}: ${verb === 'install' ? 'installed Corral hooks in' : 'removed Corral hooks from'} ${c.path}${backup}.`,
  );
}

/** Exit codes: 0 done (or nothing to do); 1 some settings file was left untouched (invalid, unreadable). */
export async function runHooks(
  args: string[],
  _settings: Settings,
  out: (text: string) => void,
): Promise<number> {
  const [action, ...rest] = args;
  const place = { env: process.env, home: homedir() };
  if (action === 'status') {
    const { values } = parseCommandArgs(COMMAND_SPECS.hooks, rest, action);
    const statuses = agentsOf(values.agent).map((a) => hooksStatus(a, place));
    const dataDir = userDataDir();
    // Who answers on the endpoint's port: a stale port or token means the hooks fall back (or say nothing).
    const asking = hooksAskingService(statuses, hookClientPaths(dataDir));
    const endpoint = await probeHookEndpoint(dataDir, { http: asking.http.length > 0 });
    if (values.json) out(JSON.stringify({ agents: statuses, endpoint }));
    else {
      for (const s of statuses) {
        const label = HOOK_AGENT_SPECS[s.agent].label;
        const what =
          s.state === 'invalid'
            ? `cannot tell: ${s.error}`
            : s.state === 'absent'
              ? `no Corral hooks (${s.path})`
              : `${s.state === 'installed' ? 'installed' : 'partly installed'} in ${s.path}: ${Object.keys(s.events).join(', ')}`;
        const broken = s.missingCommand
          ? `; its command no longer exists (${s.missingCommand}): run \`corral hooks install\` to repair it`
          : '';
        const stale = s.staleToken
          ? '; its http hooks send a token the hook endpoint no longer holds (the running Corral refuses them): run `corral hooks install --http` to write the current one'
          : '';
        out(`${label}: ${what}${broken}${stale}`);
      }
      out(hookEndpointLine(endpoint, asking));
    }
    return statuses.some((s) => s.state === 'invalid') ? 1 : 0;
  }
  if (action !== 'install' && action !== 'uninstall') {
    throw new UsageError(`expected install, uninstall or status, got '${action ?? ''}'`);
  }
  const { values } = parseCommandArgs(COMMAND_SPECS.hooks, rest, action);
  const dryRun = values['dry-run'];
  const agents = agentsOf(values.agent);
  const prefix = action === 'install' ? hookCommandPrefix() : '';
  let failed = false;
  for (const agent of agents) {
    const c =
      action === 'install'
        ? installHooks(agent, place, prefix, dryRun, values.http)
        : uninstallHooks(agent, place, dryRun);
    if (c.error) failed = true;
    report(c, action, dryRun, out);
  }
  return failed ? 1 : 0;
}
