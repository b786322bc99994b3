#!/usr/bin/env node
import { loadConfig, type LoadedConfig } from '../core/config/load-config';
import { PS_USAGE, runPs } from './commands/ps';
import { UsageError } from './usage-error';

const USAGE = `Usage:
  ${PS_USAGE}
      Agent sessions, their process groups and processes. --all includes groups no agent owns;
      --port shows who listens on a port (any owner), --session one agent session's groups.
  corral watch [--json]
      Live view; --json prints one event per line (NDJSON).
  corral kill <group-id> | --port N [--any-owner] | --session ID
             [--grace-ms N] [--orphans-only] [--with-escaped] [--dry-run] [--json]
      Stop a whole process group: SIGTERM, a grace period, SIGKILL. --port stops the group listening
      on a port (one no agent started only with --any-owner); --session every group of an agent
      session except the agent's own, one outcome per group.
  corral history [--json] [--limit N]
      Incidents Corral has recorded.
  corral policies [--json]
      The configured policies and which groups each matches right now.
  corral serve [--port N] [--metrics]
      The Corral UI in a browser, on 127.0.0.1 only; --metrics adds Prometheus metrics at /metrics.
  corral metrics [--port N] [--host 127.0.0.1] [--token T | --token-file F]
      Prometheus metrics at /metrics without the UI (default port 9977). A --host other than loopback
      requires a bearer token (--token, --token-file with owner-only permissions, or $CORRAL_METRICS_TOKEN).
  corral hooks install|uninstall [--agent claude-code|codex|gemini-cli|qwen-code|all] [--dry-run]
  corral hooks status [--json]
      Corral's hooks in the agents' own settings: the agent is told what its command left running.
  corral hook <agent> <event>
      What those hooks run (the agent's JSON payload on stdin); always exits 0.

Config: $CORRAL_CONFIG (default ~/.config/corral/config.json). Data: $CORRAL_DATA_DIR.`;

type Command = (
  args: string[],
  settings: LoadedConfig['settings'],
  out: (t: string) => void,
  config: LoadedConfig,
) => Promise<number>;

async function loadCommand(name: string): Promise<Command | null> {
  switch (name) {
    case 'ps':
      return runPs;
    case 'watch':
      return (await import('./commands/watch')).runWatch;
    case 'kill':
      return (await import('./commands/kill')).runKill;
    case 'history':
      return (await import('./commands/history')).runHistory;
    case 'policies':
      return (await import('./commands/policies')).runPolicies;
    case 'serve':
      return (await import('./commands/serve')).runServe;
    case 'metrics':
      return (await import('./commands/metrics')).runMetrics;
    case 'hooks':
      return (await import('./commands/hooks')).runHooks;
    case 'hook':
      return (await import('./commands/hook')).runHookCommand;
    default:
      return null;
  }
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? process.stderr : process.stdout).write(`${USAGE}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = await loadCommand(name);
  if (!command) {
    process.stderr.write(`corral: unknown command '${name}'\n\n${USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  for (const error of config.errors) process.stderr.write(`corral: config: ${error}\n`);
  try {
    return await command(args, config.settings, (text) => process.stdout.write(`${text}\n`), config);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (err instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))) {
      process.stderr.write(`corral ${name}: ${(err as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    throw err;
  }
}

// `corral ps | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`corral: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
