import { compileRe2, linearRefusal } from '../../../shared/linear-syntax';

export { whyNotLinear } from '../../../shared/linear-syntax';

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
  const compiled = compileRe2(source);
  if (typeof compiled === 'string') throw new Error(linearRefusal(source, compiled));
  return { source, test: (input) => compiled.test(input) };
}
