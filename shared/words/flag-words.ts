// What a flag means in words a user understands: taken from the one table (shared/flags.ts), so the
// terminal and the UI say the same. The flag itself (`leaderless`, `held-pipe`) stays the term in JSON.
import { ESCAPED_ENTRY, FLAG_TABLE, GROUP_FLAGS, flagEntry, type GroupFlag } from '../flags';

type Words = Record<GroupFlag | 'escaped', string>;
const wordsOf = (pick: (e: { word: string; meaning: string }) => string): Words =>
  Object.fromEntries([
    ...GROUP_FLAGS.map((f) => [f, pick(FLAG_TABLE[f])]),
    ['escaped', pick(ESCAPED_ENTRY)],
  ]) as Words;

/** A few words, for a column or a badge. */
export const FLAG_WORDS: Words = wordsOf((e) => e.word);

/** One clause: what it means for the user. */
export const FLAG_MEANING: Words = wordsOf((e) => e.meaning);

export function flagWords(flag: string): string {
  return flagEntry(flag)?.word ?? flag;
}

/**
 * A group's flags as a person reads them: `leaderless` goes without saying next to `orphan` (the
 * orphans' parent was the tool call's shell, now gone), so it is left out there.
 */
export function flagsInWords(flags: readonly string[]): string[] {
  const shown = flags.includes('orphan') ? flags.filter((f) => f !== 'leaderless') : flags;
  return shown.map(flagWords);
}
