import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CommandSpec, FlagSpec, FlagValues } from './option-spec';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** Whether a flag is accepted after `action` (flags declared `only` for some actions). */
export function flagAppliesTo(flag: FlagSpec, action: string | undefined): boolean {
  return flag.only === undefined || (action !== undefined && flag.only.includes(action));
}

/** The node:util parseArgs options a command's declaration accepts (after `action`, for one with actions). */
export function parserOptions(spec: CommandSpec, action?: string): ParseArgsOptionsConfig {
  const options: ParseArgsOptionsConfig = {};
  for (const [name, flag] of Object.entries(spec.flags)) {
    if (!flagAppliesTo(flag, action)) continue;
    const short = flag.short === undefined ? {} : { short: flag.short };
    options[name] =
      flag.type === 'boolean'
        ? { type: 'boolean', default: false, ...short }
        : { type: 'string', ...(flag.default === undefined ? {} : { default: flag.default }), ...short };
  }
  return options;
}

/**
 * A command's arguments, parsed strictly by its declaration (command-specs.ts): an undeclared flag, a
 * missing value or an argument the command takes none of throws node's ERR_PARSE_ARGS_* (cli-main.ts
 * turns it into one usage line). For a command with actions, `args` are those after the action.
 */
export function parseCommandArgs<S extends CommandSpec>(
  spec: S,
  args: string[],
  action?: string,
): { values: FlagValues<S['flags']>; positionals: string[] } {
  const parsed = parseArgs({
    args,
    options: parserOptions(spec, action),
    strict: true,
    allowPositionals: (spec.positionals?.length ?? 0) > 0,
  });
  // Flags another action takes read as not given (false, or their default). None is `multiple`.
  const values: Record<string, string | boolean | undefined> = {};
  for (const [name, flag] of Object.entries(spec.flags))
    values[name] =
      (parsed.values[name] as string | boolean | undefined) ??
      (flag.type === 'boolean' ? false : flag.default);
  return { values: values as FlagValues<S['flags']>, positionals: parsed.positionals };
}
