/**
 * Why a user-supplied regular expression is refused, or null. JavaScript regexes backtrack: a quantified
 * group that itself contains a quantifier (`(a+)+`, `(.*x)*`, `(\d{1,9}){2,}`) can take exponential time
 * on a hostile command line, and command lines are attacker-shaped text. This check refuses that shape
 * (the classic "star height > 1"); matching is also bounded to the command line's edges.
 */
export function unsafeRegexReason(pattern: string): string | null {
  try {
    new RegExp(pattern);
  } catch (err) {
    return `invalid regular expression (${(err as Error).message})`;
  }
  // One entry per open group: whether anything inside it is quantified.
  const stack: boolean[] = [];
  let lastGroupQuantifiedInside = false;
  let lastWasGroupEnd = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      lastWasGroupEnd = false;
      continue;
    }
    if (c === '[') {
      // Skip the class; quantifiers inside it are literals.
      for (i++; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i++;
      lastWasGroupEnd = false;
      continue;
    }
    if (c === '(') {
      stack.push(false);
      lastWasGroupEnd = false;
      continue;
    }
    if (c === ')') {
      lastGroupQuantifiedInside = stack.pop() ?? false;
      // A quantifier deep inside still repeats under every enclosing group.
      if (lastGroupQuantifiedInside && stack.length > 0) stack[stack.length - 1] = true;
      lastWasGroupEnd = true;
      continue;
    }
    const unbounded = c === '*' || c === '+' || (c === '{' && /^\{\d+,\d*\}/.test(pattern.slice(i)));
    const quantifier = unbounded || c === '?' || (c === '{' && /^\{\d+\}/.test(pattern.slice(i)));
    if (quantifier) {
      const lazyOrPossessiveMark = c === '?' && i > 0 && /[*+?}]/.test(pattern[i - 1] ?? '');
      if (!lazyOrPossessiveMark) {
        if (lastWasGroupEnd && lastGroupQuantifiedInside && unbounded)
          return 'a repeated group that itself repeats (like (a+)+) can take exponential time';
        if (stack.length > 0 && unbounded) stack[stack.length - 1] = true;
      }
      lastWasGroupEnd = false;
      continue;
    }
    lastWasGroupEnd = false;
  }
  return null;
}

/** Regexes over user text are matched on its first and last 4 KB: a regex over 2 MB of argv could stall. */
const EDGE = 4096;

export function boundedText(text: string): string {
  return text.length <= 2 * EDGE ? text : `${text.slice(0, EDGE)} ${text.slice(-EDGE)}`;
}
