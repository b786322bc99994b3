// The CLI's entry: the command table, help and config, for `corral` and the app's `--cli` mode.
import { loadConfig } from '../core/config/load-config';
import { COMMANDS, findCommand } from './command-table';
import { commandHelp, globalHelp, parseErrorMessage } from './help';
import { detectTerminal, setTerminal } from './terminal';
import { UsageError } from '../common/usage-error';
import { corralVersion } from './version';

export async function main(argv: string[]): Promise<number> {
  const noColor = argv.includes('--no-color');
  setTerminal(detectTerminal(process.stdout, process.env, noColor));
  const [name, ...args] = argv.filter((a) => a !== '--no-color');
  const helps = COMMANDS.map((c) => c.help);
  if (name === undefined) {
    process.stderr.write(`${globalHelp(helps)}\n`);
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' && args[0] ? findCommand(args[0]) : undefined;
    process.stdout.write(`${topic ? commandHelp(topic.help) : globalHelp(helps)}\n`);
    return 0;
  }
  if (name === '--version' || name === '-V') {
    process.stdout.write(`corral ${corralVersion()}\n`);
    return 0;
  }
  const entry = findCommand(name);
  if (!entry) {
    process.stderr.write(
      `corral: unknown command '${name}' (commands: ${helps.map((h) => h.name).join(', ')}; corral --help)\n`,
    );
    return 2;
  }
  // Before `--`, a help flag anywhere asks for this command's help.
  const beforeDashes = args.indexOf('--') < 0 ? args : args.slice(0, args.indexOf('--'));
  if (beforeDashes.includes('--help') || beforeDashes.includes('-h')) {
    process.stdout.write(`${commandHelp(entry.help)}\n`);
    return 0;
  }
  const run = await entry.load();
  const config = loadConfig();
  for (const error of config.errors) process.stderr.write(`corral: config: ${error}\n`);
  try {
    return await run(args, config.settings, (text) => process.stdout.write(`${text}\n`), config);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const parseError = typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
    if (err instanceof UsageError || parseError) {
      const message = parseError ? parseErrorMessage(err as Error) : (err as Error).message;
      process.stderr.write(`corral ${name}: ${message}. Usage: ${entry.help.usage}\n`);
      return 2;
    }
    throw err;
  }
}
