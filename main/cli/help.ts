import { flagSpellings, type CommandSpec, type Flags } from './option-spec';
import { GLOBAL_FLAGS } from './command-specs';

/** Each flag as written on the command line (`--port N`, `--help, -h`) with its help line. */
export function flagLines(flags: Flags): Array<[string, string]> {
  return Object.entries(flags).map(([name, flag]) => {
    const [long, ...short] = flagSpellings(name, flag);
    const written = flag.type === 'string' ? `${long} ${flag.value}` : long!;
    return [[written, ...short].join(', '), flag.help];
  });
}

function optionLines(options: ReadonlyArray<readonly [string, string]>): string[] {
  const width = Math.max(...options.map(([flag]) => flag.length));
  return options.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`);
}

/** `corral <command> --help`. */
export function commandHelp(spec: CommandSpec): string {
  const lines = [`Usage: ${spec.usage}`, '', spec.summary];
  const options = [...(spec.positionals ?? []), ...flagLines(spec.flags)];
  if (options.length > 0) lines.push('', 'Options:', ...optionLines(options));
  for (const note of spec.notes ?? []) lines.push('', note);
  return lines.join('\n');
}

/** `corral --help`: every command on one line. */
export function globalHelp(commands: ReadonlyArray<{ name: string; spec: CommandSpec }>): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: corral <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.spec.summary}`),
    '',
    'Options:',
    ...optionLines(flagLines(GLOBAL_FLAGS)),
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
      if (!flag) return message.split('\n')[0]!;
      // `--limit` last, or `--limit --json` (node calls that ambiguous): the value is missing either way.
      return /argument missing|argument is ambiguous/.test(message)
        ? `${flag} needs a value`
        : `${flag} does not take a value`;
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument '${quoted ?? '?'}'`;
    default:
      return message.split('\n')[0]!;
  }
}
