// The CLI's entry: the command table, help and config, for `corral` and the app's `--cli` mode.
import { loadConfig } from '../core/facade/service';
import { COMMANDS, findCommand } from './command-table';
import { GLOBAL_FLAGS } from './command-specs';
import { flagSpellings } from './option-spec';
import { commandHelp, globalHelp, parseErrorMessage } from './help';
import { detectTerminal, setTerminal } from './terminal';
import { UsageError } from '../common/usage-error';
import { DataDirRefused } from '../core/facade/service';
import { corralVersion } from './version';

// `corral`'s own flags, spelled as declared (and as `corral --help` lists them).
const HELP = flagSpellings('help', GLOBAL_FLAGS.help);
const VERSION = flagSpellings('version', GLOBAL_FLAGS.version);
const NO_COLOR = flagSpellings('no-color', GLOBAL_FLAGS['no-color']);

export async function main(argv: string[]): Promise<number> {
  const noColor = argv.some((a) => NO_COLOR.includes(a));
  setTerminal(detectTerminal(process.stdout, process.env, noColor));
  const [name, ...args] = argv.filter((a) => !NO_COLOR.includes(a));
  if (name === undefined) {
    process.stderr.write(`${globalHelp(COMMANDS)}\n`);
    return 2;
  }
  if (HELP.includes(name) || name === 'help') {
    const topic = name === 'help' && args[0] ? findCommand(args[0]) : undefined;
    process.stdout.write(`${topic ? commandHelp(topic.spec) : globalHelp(COMMANDS)}\n`);
    return 0;
  }
  if (VERSION.includes(name)) {
    process.stdout.write(`corral ${corralVersion()}\n`);
    return 0;
  }
  const entry = findCommand(name);
  if (!entry) {
    process.stderr.write(
      `corral: unknown command '${name}' (commands: ${COMMANDS.map((c) => c.name).join(', ')}; corral --help)\n`,
    );
    return 2;
  }
  // Before `--`, a help flag anywhere asks for this command's help.
  const beforeDashes = args.indexOf('--') < 0 ? args : args.slice(0, args.indexOf('--'));
  if (beforeDashes.some((a) => HELP.includes(a))) {
    process.stdout.write(`${commandHelp(entry.spec)}\n`);
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
      process.stderr.write(`corral ${name}: ${message}. Usage: ${entry.spec.usage}\n`);
      return 2;
    }
    // A file or folder Corral refuses (a link, another user's, a malformed keep list): the reason, in one line.
    if (err instanceof DataDirRefused) {
      process.stderr.write(`corral ${name}: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
