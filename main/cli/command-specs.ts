import { HOOK_AGENT_NAMES } from '../../shared/hooks';
import { INCIDENT_FLAGS, MAX_INCIDENTS_LIMIT } from '../../shared/incident-filter';
import { NUMERIC_SETTINGS } from '../../shared/settings-table';
import type { CommandDeclaration, Flags } from './option-spec';
import { withUsage } from './usage-line';

const json = (help: string) => ({ type: 'boolean', help }) as const;
/** `--port N` and `--session ID`, as every command that names groups by them declares them. */
const port = (help: string) => ({ type: 'string', value: 'N', help }) as const;
const session = (help: string) => ({ type: 'string', value: 'ID', help }) as const;
/** The ways a command that acts on groups names them (flag-values.ts `targetOf` reads them). */
const TARGET = ['<group-id>', 'port', 'session'] as const;
const grace = NUMERIC_SETTINGS.graceMs;

/**
 * Every CLI command's declaration, in the order `corral --help` lists them: its help and every flag it
 * accepts (name, alias, value, default, help line). Help is printed from here (help.ts) and each command
 * parses its arguments with it (parse-command-args.ts), so the two cannot disagree. A flag once shipped
 * is a contract: add, never rename.
 */
export const COMMAND_SPECS = withUsage({
  ps: {
    summary: 'Agent sessions, their process groups and processes, flagged groups first.',
    flags: {
      all: { type: 'boolean', help: 'include groups no agent owns' },
      port: port(
        'only the groups listening on port N, whoever owns them; then who held N and the 9 ports above it in the last day (JSON: portHistory)',
      ),
      session: session('only the groups of one agent session (a unique prefix of 8+ characters will do)'),
      json: json('print the snapshot as JSON'),
    },
    notes: [
      'Exit 3: --port or --session matched no group (the same words and code as corral kill with them).',
    ],
  },
  watch: {
    summary: 'Live view that fits the terminal: flagged groups first, recent events below.',
    flags: {
      all: { type: 'boolean', help: 'include groups no agent owns' },
      json: json('print one event per line (NDJSON) instead of the live view'),
    },
  },
  kill: {
    summary: 'Stop a whole process group: SIGTERM, a grace period, SIGKILL.',
    positionals: [['<group-id>', 'the GROUP column of corral ps (<pgid>:<pid>:<start>); never a bare PID']],
    oneOf: TARGET,
    flags: {
      port: port('stop the group listening on port N'),
      'any-owner': {
        type: 'boolean',
        with: 'port',
        help: 'with --port: also a listener no agent started',
      },
      session: session("stop every leftover group of an agent session, never the agent's own"),
      // No parser default: the config's teardown.graceMs is the default.
      'grace-ms': {
        type: 'string',
        value: 'N',
        help: `ms between SIGTERM and SIGKILL (${grace.min}..${grace.max}; default from the config)`,
      },
      'orphans-only': {
        type: 'boolean',
        help: 'stop only the members that were orphaned (required for an agent’s own group)',
      },
      'with-escaped': {
        type: 'boolean',
        help: 'also stop processes that left the group with setsid, each checked by identity',
      },
      'dry-run': { type: 'boolean', help: 'say what would be signalled; signal nothing' },
      json: json('print the outcome as JSON'),
    },
    notes: ['Exit codes: 0 every targeted process is gone, 1 some survived, 3 refused (nothing signalled).'],
  },
  keep: {
    summary:
      'Keep a group running on purpose: its flags stay, but no notification, policy stop or leak count.',
    positionals: [['<group-id>', 'the GROUP column of corral ps']],
    oneOf: TARGET,
    flags: {
      port: port('keep the group listening on port N'),
      session: session("keep every leftover group of an agent session (never the agent's own)"),
      // No parser default: --list refuses --for, and the default is DEFAULT_KEEP_MS (storage/keeps.ts).
      for: {
        type: 'string',
        value: 'D',
        help: 'how long: 30m, 8h, 2d (default 8h, at most 30d); then it is a leftover again',
      },
      note: { type: 'string', value: 'TEXT', help: 'why (shown beside the keep)' },
      list: { type: 'boolean', form: ['json'], help: 'the keeps in force' },
      json: json('print as JSON'),
    },
    notes: ['Exit 1: no such group is running now (nothing was kept).'],
  },
  unkeep: {
    summary: 'End a keep: the group is flagged, notified and matched by policies again.',
    positionals: [['<group-id>', 'the group id it was kept under']],
    oneOf: TARGET,
    flags: {
      port: port('the group listening on port N'),
      session: session('the leftover groups of an agent session'),
      json: json('print the ids unkept as JSON'),
    },
    notes: ['Exit 1: nothing named was kept.'],
  },
  history: {
    summary: 'Incidents Corral has recorded.',
    flags: {
      agent: {
        type: 'string',
        value: 'NAME',
        help: 'only the incidents of this agent (claude-code, codex, …)',
      },
      session: session('only the incidents of one agent session (its id or first characters)'),
      project: {
        type: 'string',
        value: 'PATH',
        help: "only the incidents of one project (the session's git work tree)",
      },
      flag: {
        type: 'string',
        value: 'FLAG',
        help: `only the incidents that had this flag: ${INCIDENT_FLAGS.join(', ')}`,
      },
      since: {
        type: 'string',
        value: 'TIME',
        help: 'only the incidents still going at TIME or later: 30m, 2h, 7d ago, or a date (2026-12-03, 2026-12-03T14:05)',
      },
      until: {
        type: 'string',
        value: 'TIME',
        help: 'only the incidents that began by TIME (the same forms as --since)',
      },
      limit: {
        type: 'string',
        value: 'N',
        default: '100',
        help: `at most N incidents, newest first (1..${MAX_INCIDENTS_LIMIT}, default 100)`,
      },
      offset: {
        type: 'string',
        value: 'N',
        default: '0',
        help: 'skip the N newest that match first (the next page: --offset 100; default 0)',
      },
      json: json('print the incidents as JSON'),
    },
  },
  serve: {
    summary: 'The Corral UI in a browser, on 127.0.0.1 only.',
    flags: {
      port: {
        type: 'string',
        value: 'N',
        default: '7077',
        help: 'port to listen on (0..65535, default 7077; 0 picks a free one)',
      },
      metrics: { type: 'boolean', help: 'also serve Prometheus metrics at /metrics' },
    },
  },
  policies: {
    summary: 'The configured policies, the mode, and which groups each matches right now.',
    flags: { json: json('print the rules and their matches as JSON') },
  },
  metrics: {
    summary: 'Prometheus metrics at /metrics without the UI (default port 9977).',
    oneOf: ['token', 'token-file'],
    flags: {
      port: { type: 'string', value: 'N', default: '9977', help: 'port to listen on (default 9977)' },
      host: {
        type: 'string',
        value: 'H',
        default: '127.0.0.1',
        help: 'address to bind (default 127.0.0.1); any other requires a bearer token',
      },
      token: {
        type: 'string',
        value: 'T',
        help: 'the bearer token scrapes must send (or $CORRAL_METRICS_TOKEN)',
      },
      'token-file': {
        type: 'string',
        value: 'F',
        help: 'read the token from F, which must have owner-only permissions',
      },
    },
  },
  hooks: {
    summary: "Corral's hooks in the agents' own settings: the agent is told what its command left running.",
    actions: ['install', 'uninstall', 'status'],
    flags: {
      agent: {
        type: 'string',
        value: [...HOOK_AGENT_NAMES, 'all'].join('|'),
        help: 'which agent (default all)',
      },
      'dry-run': {
        type: 'boolean',
        only: ['install', 'uninstall'],
        help: 'print the diff instead of writing',
      },
      http: {
        type: 'boolean',
        // Accepted (and ignored) by uninstall too, as it always was.
        only: ['install', 'uninstall'],
        help: 'with install: Claude Code posts its hooks to the running Corral (no process per call; no note while none runs)',
      },
      json: { type: 'boolean', only: ['status'], help: 'with status: print as JSON' },
    },
    notes: ['Exit 1: a settings file was left untouched (not valid JSON, or not the expected shape).'],
  },
  service: {
    summary: '`corral watch` as your own background service (systemd user unit, macOS LaunchAgent).',
    actions: ['install', 'uninstall', 'status'],
    flags: { json: json('print what was done, or the status, as JSON') },
    notes: [
      'install writes the unit or plist, enables it and starts it where a user manager runs; uninstall stops it and removes exactly that.',
      'The app and the service share the data directory: one of them records incidents, the other reads them.',
    ],
  },
  // Its arguments are never parsed as flags: an agent runs it, and it always exits 0 (hook-process.ts).
  hook: {
    summary: "What Corral's agent hooks run: reads the agent's JSON payload on stdin; always exits 0.",
    positionals: [
      ['<agent>', 'claude-code, codex, gemini-cli or qwen-code'],
      ['<event>', "the agent's hook event, e.g. PreToolUse, PostToolUse, SessionEnd"],
    ],
    flags: {},
  },
} as const satisfies Record<string, CommandDeclaration>);

export type CommandName = keyof typeof COMMAND_SPECS;

/** What `corral` itself accepts before (or, for --help and --no-color, among) a command's arguments. */
export const GLOBAL_FLAGS = {
  help: { type: 'boolean', short: 'h', help: 'this help; `corral <command> --help` for one command' },
  version: { type: 'boolean', short: 'V', help: 'print the version' },
  'no-color': { type: 'boolean', help: 'no colour (also NO_COLOR=1); FORCE_COLOR=1 forces it' },
} as const satisfies Flags;
