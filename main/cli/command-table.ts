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
      usage: 'corral ps [--all] [--port N] [--session ID] [--json]',
      options: [
        ['--all', 'include groups no agent owns'],
        [
          '--port N',
          'only the groups listening on port N, whoever owns them; then who held N and the 9 ports above it in the last day (JSON: portHistory)',
        ],
        ['--session ID', 'only the groups of one agent session (a unique prefix of 8+ characters will do)'],
        ['--json', 'print the snapshot as JSON'],
      ],
      notes: [
        'Exit 3: --port or --session matched no group (the same words and code as corral kill with them).',
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
      usage:
        'corral kill <group-id> | --port N [--any-owner] | --session ID [--grace-ms N] [--orphans-only] [--with-escaped] [--dry-run] [--json]',
      options: [
        ['<group-id>', 'the GROUP column of corral ps (<pgid>:<pid>:<start>); never a bare PID'],
        ['--port N', 'stop the group listening on port N'],
        ['--any-owner', 'with --port: also a listener no agent started'],
        ['--session ID', "stop every leftover group of an agent session, never the agent's own"],
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
      name: 'keep',
      summary:
        'Keep a group running on purpose: its flags stay, but no notification, policy stop or leak count.',
      usage:
        'corral keep <group-id> | --port N | --session ID [--for 8h] [--note TEXT] [--json] | --list [--json]',
      options: [
        ['<group-id>', 'the GROUP column of corral ps'],
        ['--port N', 'keep the group listening on port N'],
        ['--session ID', "keep every leftover group of an agent session (never the agent's own)"],
        ['--for D', 'how long: 30m, 8h, 2d (default 8h, at most 30d); then it is a leftover again'],
        ['--note TEXT', 'why (shown beside the keep)'],
        ['--list', 'the keeps in force'],
        ['--json', 'print as JSON'],
      ],
      notes: ['Exit 1: no such group is running now (nothing was kept).'],
    },
    load: async () => (await import('./commands/keep')).runKeep,
  },
  {
    help: {
      name: 'unkeep',
      summary: 'End a keep: the group is flagged, notified and matched by policies again.',
      usage: 'corral unkeep <group-id> | --port N | --session ID [--json]',
      options: [
        ['<group-id>', 'the group id it was kept under'],
        ['--port N', 'the group listening on port N'],
        ['--session ID', 'the leftover groups of an agent session'],
        ['--json', 'print the ids unkept as JSON'],
      ],
      notes: ['Exit 1: nothing named was kept.'],
    },
    load: async () => (await import('./commands/keep')).runUnkeep,
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
      usage: 'corral serve [--port N] [--metrics]',
      options: [
        ['--port N', 'port to listen on (0..65535, default 7077; 0 picks a free one)'],
        ['--metrics', 'also serve Prometheus metrics at /metrics'],
      ],
    },
    load: async () => (await import('./commands/serve')).runServe,
  },
  {
    help: {
      name: 'policies',
      summary: 'The configured policies, the mode, and which groups each matches right now.',
      usage: 'corral policies [--json]',
      options: [['--json', 'print the rules and their matches as JSON']],
    },
    load: async () => (await import('./commands/policies')).runPolicies,
  },
  {
    help: {
      name: 'metrics',
      summary: 'Prometheus metrics at /metrics without the UI (default port 9977).',
      usage: 'corral metrics [--port N] [--host 127.0.0.1] [--token T | --token-file F]',
      options: [
        ['--port N', 'port to listen on (default 9977)'],
        ['--host H', 'address to bind (default 127.0.0.1); any other requires a bearer token'],
        ['--token T', 'the bearer token scrapes must send (or $CORRAL_METRICS_TOKEN)'],
        ['--token-file F', 'read the token from F, which must have owner-only permissions'],
      ],
    },
    load: async () => (await import('./commands/metrics')).runMetrics,
  },
  {
    help: {
      name: 'hooks',
      summary: "Corral's hooks in the agents' own settings: the agent is told what its command left running.",
      usage:
        'corral hooks install|uninstall|status [--agent claude-code|codex|gemini-cli|qwen-code|all] [--dry-run] [--http] [--json]',
      options: [
        ['--agent A', 'which agent (default all)'],
        ['--dry-run', 'print the diff instead of writing'],
        [
          '--http',
          'with install: Claude Code posts its hooks to the running Corral (no process per call; no note while none runs)',
        ],
        ['--json', 'with status: print as JSON'],
      ],
      notes: ['Exit 1: a settings file was left untouched (not valid JSON, or not the expected shape).'],
    },
    load: async () => (await import('./commands/hooks')).runHooks,
  },
  {
    help: {
      name: 'service',
      summary: '`corral watch` as your own background service (systemd user unit, macOS LaunchAgent).',
      usage: 'corral service install|uninstall|status [--json]',
      options: [['--json', 'print what was done, or the status, as JSON']],
      notes: [
        'install writes the unit or plist, enables it and starts it where a user manager runs; uninstall stops it and removes exactly that.',
        'The app and the service share the data directory: one of them records incidents, the other reads them.',
      ],
    },
    load: async () => (await import('./commands/service')).runService,
  },
  {
    help: {
      name: 'hook',
      summary: "What Corral's agent hooks run: reads the agent's JSON payload on stdin; always exits 0.",
      usage: 'corral hook <agent> <event>',
      options: [
        ['<agent>', 'claude-code, codex, gemini-cli or qwen-code'],
        ['<event>', "the agent's hook event, e.g. PreToolUse, PostToolUse, SessionEnd"],
      ],
    },
    load: async () => (await import('./commands/hook')).runHookCommand,
  },
];

export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((c) => c.help.name === name);
}
