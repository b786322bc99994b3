import type { LoadedConfig } from '../core/facade/service';
import { COMMAND_SPECS, type CommandName } from './command-specs';
import type { CommandSpec } from './option-spec';

export type RunCommand = (
  args: string[],
  settings: LoadedConfig['settings'],
  out: (t: string) => void,
  config: LoadedConfig,
) => Promise<number>;

export interface CommandEntry {
  name: string;
  /** Its help and flags (command-specs.ts). */
  spec: CommandSpec;
  load: () => Promise<RunCommand>;
}

/** How to load each command, lazily, so that `corral ps` does not load the server. */
const LOADERS: Record<CommandName, () => Promise<RunCommand>> = {
  ps: async () => (await import('./commands/ps')).runPs,
  watch: async () => (await import('./commands/watch')).runWatch,
  kill: async () => (await import('./commands/kill')).runKill,
  keep: async () => (await import('./commands/keep')).runKeep,
  unkeep: async () => (await import('./commands/keep')).runUnkeep,
  history: async () => (await import('./commands/history')).runHistory,
  serve: async () => (await import('./commands/serve')).runServe,
  policies: async () => (await import('./commands/policies')).runPolicies,
  metrics: async () => (await import('./commands/metrics')).runMetrics,
  hooks: async () => (await import('./commands/hooks')).runHooks,
  service: async () => (await import('./commands/service')).runService,
  hook: async () => (await import('./commands/hook')).runHookCommand,
};

/**
 * Every CLI command, in the order `corral --help` lists them. A new command is its declaration in
 * command-specs.ts, its loader above, and a module under commands/ exporting its run function.
 */
export const COMMANDS: CommandEntry[] = (Object.keys(COMMAND_SPECS) as CommandName[]).map((name) => ({
  name,
  spec: COMMAND_SPECS[name],
  load: LOADERS[name],
}));

export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((c) => c.name === name);
}
