// What `corral hooks` and `corral service` use of the core: the agents' hook settings and the user
// service that runs `corral watch`. The CLI reaches these through here only.
export { HOOK_AGENTS, HOOK_AGENT_SPECS, isHookAgent, type HookAgent } from '../hooks-setup/hook-agents';
export { hookCommandPrefix } from '../hooks-setup/hook-command';
export { hooksStatus, installHooks, uninstallHooks, type HooksChange } from '../hooks-setup/hooks-setup';
export { hookClientPaths } from '../hooks-setup/hook-client-choice';
export { probeHookEndpoint, type HookEndpointProbe } from '../hooks-setup/hook-endpoint-probe';
export { hooksAskingService } from '../hooks-setup/hooks-asking-service';
export { resolveHookCommand, type HookCommandResolution } from '../hooks-setup/hooks-service';
export { installedCorralCommand } from '../hooks-setup/installed-command';
export { shellQuote } from '../hooks-setup/shell-quote';
export { corralCommandArgv, servicePath } from '../user-service/corral-command';
export {
  installUserService,
  runManager,
  uninstallUserService,
  userServiceStatus,
  type ServicePlace,
  type ServiceReport,
} from '../user-service/user-service';
