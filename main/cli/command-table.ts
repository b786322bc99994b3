import type { LoadedConfig } from '../core/config/load-config';

export type RunCommand = (
  args: string[],
  settings: LoadedConfig['settings'],
  out: (t: string) => void,
  config: LoadedConfig,
) => Promise<number>;

/** What `corral <command> --help` and the usage errors say about a command; declared once per command. */
export interface CommandHelp {
  name: string;
  /** One line: what the command does. */
  summary: string;
  /** `corral ps [--all] [--json]` */
  usage: string;
  /** Each option as written on the command line, with one line of explanation. */
  options: Array<[flag: string, text: string]>;
  /** Extra paragraphs (exit codes, examples). */
  notes?: string[];
}

export interface CommandEntry {
  help: CommandHelp;
  load: () => Promise<RunCommand>;
}

/**
 * Every CLI command: its help and how to load it (lazily, so `corral ps` does not load the server).
 * A new command is one entry here and a module under commands/ exporting its run function.
 */
export const COMMANDS: CommandEntry[] = [
  {
    help: {
      name: 'ps',
      summary: 'Agent sessions, their process groups and processes, flagged groups first.',
      usage: 'corral ps [--all] [--json]',
      options: [
        ['--all', 'include groups no agent owns'],
        ['--json', 'print the snapshot as JSON'],
      ],
    },
    load: async () => (await import('./commands/ps')).runPs,
  },
  {
    help: {
      name: 'watch',
      summary: 'Live view that fits the terminal: flagged groups first, recent events below.',
      usage: 'corral watch [--all] [--json]',
      options: [
        ['--all', 'include groups no agent owns'],
        ['--json', 'print one event per line (NDJSON) instead of the live view'],
      ],
    },
    load: async () => (await import('./commands/watch')).runWatch,
  },
  {
    help: {
      name: 'kill',
      summary: 'Stop a whole process group: SIGTERM, a grace period, SIGKILL.',
      usage: 'corral kill <group-id> [--grace-ms N] [--orphans-only] [--with-escaped] [--dry-run] [--json]',
      options: [
        ['<group-id>', 'the GROUP column of corral ps (<pgid>:<pid>:<start>); never a bare PID'],
        ['--grace-ms N', 'ms between SIGTERM and SIGKILL (0..600000; default from the config)'],
        ['--orphans-only', 'stop only the members that were orphaned (required for an agent’s own group)'],
        ['--with-escaped', 'also stop processes that left the group with setsid, each checked by identity'],
        ['--dry-run', 'say what would be signalled; signal nothing'],
        ['--json', 'print the outcome as JSON'],
      ],
      notes: [
        'Exit codes: 0 every targeted process is gone, 1 some survived, 3 refused (nothing signalled).',
      ],
    },
    load: async () => (await import('./commands/kill')).runKill,
  },
  {
    help: {
      name: 'history',
      summary: 'Incidents Corral has recorded.',
      usage: 'corral history [--json] [--limit N]',
      options: [
        ['--json', 'print the incidents as JSON'],
        ['--limit N', 'at most N incidents, newest first (1..100000, default 100)'],
      ],
    },
    load: async () => (await import('./commands/history')).runHistory,
  },
  {
    help: {
      name: 'serve',
      summary: 'The Corral UI in a browser, on 127.0.0.1 only.',
      usage: 'corral serve [--port N]',
      options: [['--port N', 'port to listen on (0..65535, default 7077; 0 picks a free one)']],
    },
    load: async () => (await import('./commands/serve')).runServe,
  },
];

export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((c) => c.help.name === name);
}
