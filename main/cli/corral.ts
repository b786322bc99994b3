#!/usr/bin/env node
import { loadConfig, type LoadedConfig } from '../core/config/load-config';
import { PS_USAGE, runPs } from './commands/ps';
import { UsageError } from './usage-error';

const USAGE = `Usage:
  ${PS_USAGE}
      Agent sessions, their process groups and processes. --all includes groups no agent owns.
  corral watch [--json]
      Live view; --json prints one event per line (NDJSON).
  corral kill <group-id> [--grace-ms N] [--orphans-only] [--with-escaped] [--dry-run] [--json]
      Stop a whole process group: SIGTERM, a grace period, SIGKILL.
  corral history [--json] [--limit N]
      Incidents Corral has recorded.
  corral policies [--json]
      The configured policies and which groups each matches right now.
  corral serve [--port N]
      The Corral UI in a browser, on 127.0.0.1 only.

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
