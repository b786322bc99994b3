/**
 * The shape of one CLI command's declaration (command-specs.ts): what `corral <command> --help` prints
 * and what its parser accepts are both derived from it (help.ts, parse-command-args.ts).
 */

interface FlagCommon {
  /** One line of help. Where a default is declared, the line says it (`default 7077`). */
  help: string;
  /** A one-letter alias, `-h` for `--help`. */
  short?: string;
  /** Only after these actions (`corral hooks status --json`); every action when absent. */
  only?: readonly string[];
  /** Only beside this flag: usage shows it right after it (`--port N [--any-owner]`). */
  with?: string;
  /** A call of its own that takes only these other flags (`--list [--json]`), last in usage. */
  form?: readonly string[];
}

/** A flag without a value; false when not given. */
export interface BooleanFlag extends FlagCommon {
  type: 'boolean';
}

/** A flag with a value: `--port N`. */
export interface StringFlag extends FlagCommon {
  type: 'string';
  /** The value's name in help: `N` in `--port N`. */
  value: string;
  /** The value when the flag is not given; undefined when absent. */
  default?: string;
}

export type FlagSpec = BooleanFlag | StringFlag;

/** Flags by their long name, without the dashes, in the order help lists them. */
export type Flags = Readonly<Record<string, FlagSpec>>;

/** A command as command-specs.ts declares it; its usage line is made from the rest (usage-line.ts). */
export interface CommandDeclaration {
  /** One line: what the command does. */
  summary: string;
  /** The first argument names what to do (`corral service install`); flags follow it. */
  actions?: readonly string[];
  /** Arguments that are not flags, as help shows them (`<group-id>`); none are accepted when absent. */
  positionals?: ReadonlyArray<readonly [name: string, help: string]>;
  flags: Flags;
  /** Extra paragraphs (exit codes, examples). */
  notes?: readonly string[];
  /**
   * Ways of naming one thing, of which a call gives one (`<group-id> | --port N | --session ID`): flag
   * names, and positionals by their help name. Required when a positional is among them.
   */
  oneOf?: readonly string[];
}

export interface CommandSpec extends CommandDeclaration {
  /** `corral ps [--all] [--json]`: names every flag, and the shape of a call. */
  usage: string;
}

/** What parsing gives for each flag: a boolean, the value, or undefined for a value flag with no default. */
export type FlagValues<F extends Flags> = {
  -readonly [K in keyof F]: F[K] extends BooleanFlag
    ? boolean
    : F[K] extends { default: string }
      ? string
      : string | undefined;
};

/** `--help, -h`, `--port N`: a flag as written on the command line. */
export function flagSpellings(name: string, flag: FlagSpec): string[] {
  return flag.short === undefined ? [`--${name}`] : [`--${name}`, `-${flag.short}`];
}
