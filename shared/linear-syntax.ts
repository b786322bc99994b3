import { RE2JS } from 're2js';

const SYNTAX = 'Corral accepts RE2 syntax, without backreferences or lookaround';

/** The compiled pattern, or why RE2 refused it (a syntax error, a backreference, lookaround). */
export function compileRe2(source: string): RE2JS | string {
  try {
    return RE2JS.compile(source);
  } catch (err) {
    return err instanceof Error ? err.message.replace(/^error parsing regexp: /, '') : String(err);
  }
}

/** Why RE2 cannot run `source` (a backreference, lookaround, a syntax error), or null when it can. */
export function whyNotLinear(source: string): string | null {
  const compiled = compileRe2(source);
  return typeof compiled === 'string' ? `RE2 cannot run it (${compiled}); ${SYNTAX}` : null;
}

export function linearRefusal(source: string, reason: string): string {
  return `the pattern ${JSON.stringify(source)} cannot be run in linear time (${reason}); ${SYNTAX}`;
}
