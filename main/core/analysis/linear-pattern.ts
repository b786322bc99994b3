import { RE2JS } from 're2js';

/** A configured pattern, matched in time linear in the input (RE2's automata; no backtracking). */
export interface LinearPattern {
  readonly source: string;
  test(input: string): boolean;
}

/**
 * Compiles a user-configurable pattern with RE2 (re2js, pure JavaScript): `^(a|aa)+$` over a
 * 50-character command line that any local process controls costs microseconds, where JavaScript's
 * backtracking engine never returns. Throws, naming the pattern, for what RE2 does not accept
 * (backreferences, lookaround): those cannot be run in linear time.
 */
export function compileLinear(source: string): LinearPattern {
  const compiled = tryCompile(source);
  if (typeof compiled === 'string')
    throw new Error(
      `the pattern ${JSON.stringify(source)} cannot be run in linear time (${compiled}); ${SYNTAX}`,
    );
  return { source, test: (input) => compiled.test(input) };
}

const SYNTAX = 'Corral accepts RE2 syntax, without backreferences or lookaround';

/** Why RE2 cannot run `source` (a backreference, lookaround, a syntax error), or null when it can. */
export function whyNotLinear(source: string): string | null {
  const compiled = tryCompile(source);
  return typeof compiled === 'string' ? `RE2 cannot run it (${compiled}); ${SYNTAX}` : null;
}

function tryCompile(source: string): RE2JS | string {
  try {
    return RE2JS.compile(source);
  } catch (err) {
    return err instanceof Error ? err.message.replace(/^error parsing regexp: /, '') : String(err);
  }
}
