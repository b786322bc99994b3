import { describe, expect, it } from 'vitest';
import { COMMANDS, type CommandEntry } from '../../main/cli/command-table';
import { commandHelp, globalHelp, parseErrorMessage } from '../../main/cli/help';
import { parseCommandArgs } from '../../main/cli/parse-command-args';
import type { LoadedConfig } from '../../main/core/config/load-config';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { runCli } from '../support/run-cli';

const ENV = { CORRAL_CONFIG: '/nonexistent' };
const CONFIG: LoadedConfig = { path: '/nonexistent', settings: DEFAULT_SETTINGS, errors: [] };
/** A flag no command has: every call below ends with it, so a parse that reaches it fails on it. */
const SENTINEL = '--zz-no-such-flag';
const ACCEPTED_ALL = `unknown option '${SENTINEL}'`;

interface Listed {
  spellings: string[];
  /** `N` in `--port N`; null for a flag without a value. */
  value: string | null;
  line: string;
}

/** What a help text's Options section lists, read back from the printed text. */
function listedIn(help: string): { flags: Listed[]; positionals: string[] } {
  const lines = help.split('\n');
  const start = lines.indexOf('Options:');
  expect(start, help).toBeGreaterThan(0);
  const end = lines.indexOf('', start);
  const flags: Listed[] = [];
  const positionals: string[] = [];
  for (const line of lines.slice(start + 1, end < 0 ? undefined : end)) {
    const column = /^ {2}(\S.*?) {2,}\S/.exec(line)?.[1];
    expect(column, line).toBeDefined();
    if (column!.startsWith('<')) {
      positionals.push(column!);
      continue;
    }
    const [first, ...shorts] = column!.split(', ');
    const [long, value] = first!.split(' ');
    expect(long).toMatch(/^--[a-z][\w-]*$/);
    for (const s of shorts) expect(s).toMatch(/^-[a-zA-Z]$/);
    flags.push({ spellings: [long!, ...shorts], value: value ?? null, line });
  }
  return { flags, positionals };
}

/** The first positional every call of a command starts with: its actions, or nothing. */
const actionsOf = (c: CommandEntry): Array<string | undefined> => [...(c.spec.actions ?? [undefined])];
const argsAfter = (action: string | undefined, args: string[]) => (action ? [action, ...args] : args);

/** How the command's own run function answers `args`: the one-line parse error, or 'accepted'. */
async function answer(c: CommandEntry, args: string[]): Promise<string> {
  const run = await c.load();
  try {
    await run(args, DEFAULT_SETTINGS, () => {}, CONFIG);
  } catch (err) {
    return parseErrorMessage(err as Error);
  }
  return 'accepted';
}

// Every flag any command lists, and every one-letter alias: each command must refuse those its help
// does not list.
const EVERY_LONG = [...new Set(COMMANDS.flatMap((c) => Object.keys(c.spec.flags).map((n) => `--${n}`)))];
const EVERY_SHORT = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((l) => `-${l}`);

// `corral hook` never parses its arguments as flags: the agent runs it and it always exits 0.
const PARSING = COMMANDS.filter((c) => c.name !== 'hook');

describe("each command's help and parser agree", () => {
  it('hook, whose arguments are never parsed as flags, declares and lists none', () => {
    const hook = COMMANDS.find((c) => c.name === 'hook')!;
    expect(Object.keys(hook.spec.flags)).toEqual([]);
    expect(listedIn(commandHelp(hook.spec))).toEqual({ flags: [], positionals: ['<agent>', '<event>'] });
  });

  it.each(PARSING.map((c) => [c.name, c] as const))(
    'corral %s accepts every flag its help lists, with a value where help shows one',
    async (_name, c) => {
      const { flags } = listedIn(commandHelp(c.spec));
      for (const action of actionsOf(c)) {
        const accepted = flags.filter((f) => {
          const spec = c.spec.flags[f.spellings[0]!.slice(2)];
          return spec !== undefined && (spec.only === undefined || spec.only.includes(action!));
        });
        // A command with actions takes each flag after at least one of them.
        for (const f of accepted) {
          for (const spelling of f.spellings) {
            const given = f.value === null ? [spelling] : [spelling, '1'];
            expect(await answer(c, argsAfter(action, [...given, SENTINEL])), `${action} ${spelling}`).toBe(
              ACCEPTED_ALL,
            );
            // A value flag swallows no following flag; a flag without a value takes none.
            expect(await answer(c, argsAfter(action, [spelling, SENTINEL]))).toBe(
              f.value === null ? ACCEPTED_ALL : `${spelling} needs a value`,
            );
          }
        }
      }
      const everyAction = new Set(
        actionsOf(c).flatMap((action) =>
          Object.entries(c.spec.flags)
            .filter(([, f]) => f.only === undefined || f.only.includes(action!))
            .map(([n]) => n),
        ),
      );
      expect([...everyAction].sort()).toEqual(flags.map((f) => f.spellings[0]!.slice(2)).sort());
    },
  );

  it.each(PARSING.map((c) => [c.name, c] as const))(
    'corral %s refuses every flag its help does not list, and arguments unless help names them',
    async (_name, c) => {
      const { flags, positionals } = listedIn(commandHelp(c.spec));
      for (const action of actionsOf(c)) {
        const takes = new Set(
          flags
            .filter((f) => {
              const only = c.spec.flags[f.spellings[0]!.slice(2)]?.only;
              return only === undefined || only.includes(action!);
            })
            .flatMap((f) => f.spellings),
        );
        for (const spelling of [...EVERY_LONG, ...EVERY_SHORT].filter((s) => !takes.has(s))) {
          expect(await answer(c, argsAfter(action, [spelling, SENTINEL])), `${action} ${spelling}`).toBe(
            `unknown option '${spelling}'`,
          );
        }
        expect(await answer(c, argsAfter(action, ['some-word', SENTINEL]))).toBe(
          positionals.length > 0 ? ACCEPTED_ALL : "unexpected argument 'some-word'",
        );
      }
    },
  );

  it.each(COMMANDS.map((c) => [c.name, c] as const))(
    'corral %s: the usage line names exactly the flags the help lists, and each default is the one help states',
    (_name, c) => {
      const help = commandHelp(c.spec);
      const { flags } = listedIn(help);
      const usage = help.split('\n')[0]!;
      expect(usage).toMatch(new RegExp(`^Usage: corral ${c.name}\\b`));
      const inUsage = [...new Set(usage.match(/--[\w-]+/g) ?? [])].sort();
      expect(inUsage).toEqual(flags.map((f) => f.spellings[0]).sort());
      const { values } = parseCommandArgs(c.spec, []);
      for (const f of flags) {
        const value: unknown = values[f.spellings[0]!.slice(2)];
        if (typeof value === 'string') expect(f.line).toContain(`default ${value}`);
        else expect(value === false || value === undefined, f.line).toBe(true);
      }
    },
  );
});

describe('corral itself', () => {
  it('honours each of its own flags its help lists', async () => {
    const { flags } = listedIn(globalHelp(COMMANDS));
    expect(flags.map((f) => f.spellings)).toEqual([['--help', '-h'], ['--version', '-V'], ['--no-color']]);
    for (const spelling of ['--help', '-h']) {
      const r = await runCli([spelling], { env: ENV });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Usage: corral <command> \[options\]\n/);
      const one = await runCli(['hooks', 'status', spelling], { env: ENV });
      expect(one.stdout).toMatch(/^Usage: corral hooks /);
    }
    for (const spelling of ['--version', '-V']) {
      const r = await runCli([spelling], { env: ENV });
      expect(r.stdout).toMatch(/^corral \d+\.\d+\.\d+\n$/);
    }
  });

  it.each(PARSING.map((c) => [c.name, c] as const))(
    'answers corral %s with an unknown flag in one usage line, exit 2',
    async (name, c) => {
      const r = await runCli([name, ...argsAfter(actionsOf(c)[0], [SENTINEL])], { env: ENV });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`corral ${name}: unknown option '${SENTINEL}'. Usage: ${c.spec.usage}\n`);
    },
  );
});
