import type { CommandHelp } from './command-table';

const GLOBAL_OPTIONS: Array<[string, string]> = [
  ['--help, -h', 'this help; `corral <command> --help` for one command'],
  ['--version', 'print the version'],
  ['--no-color', 'no colour (also NO_COLOR=1); FORCE_COLOR=1 forces it'],
];

function optionLines(options: ReadonlyArray<[string, string]>): string[] {
  const width = Math.max(...options.map(([flag]) => flag.length));
  return options.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`);
}

/** `corral <command> --help`. */
export function commandHelp(help: CommandHelp): string {
  const lines = [`Usage: ${help.usage}`, '', help.summary];
  if (help.options.length > 0) lines.push('', 'Options:', ...optionLines(help.options));
  for (const note of help.notes ?? []) lines.push('', note);
  return lines.join('\n');
}

/** `corral --help`: every command on one line. */
export function globalHelp(commands: readonly CommandHelp[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: corral <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    ...optionLines(GLOBAL_OPTIONS),
    '',
    'Config: $CORRAL_CONFIG (default ~/.config/corral/config.json). Data: $CORRAL_DATA_DIR.',
  ].join('\n');
}

/**
 * Node's parseArgs errors, in one line with the flag as typed: `unknown option '--x'` rather than
 * the parser's paragraph about positionals.
 */
export function parseErrorMessage(err: Error & { code?: string }): string {
  const message = err.message;
  const quoted = /'([^']+)'/.exec(message)?.[1];
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option '${quoted?.startsWith('-') ? quoted : `--${quoted ?? '?'}`}'`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const flag = /--[\w-]+/.exec(message)?.[0];
      return flag
        ? /argument missing/.test(message)
          ? `${flag} needs a value`
          : `${flag} does not take a value`
        : message.split('\n')[0]!;
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument '${quoted ?? '?'}'`;
    default:
      return message.split('\n')[0]!;
  }
}
