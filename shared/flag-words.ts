// What a flag means in words a user understands, for places without tooltips (the terminal). The
// flag itself (`leaderless`, `held-pipe`) stays the term in JSON and in the UI's badges.
import type { GroupFlag } from './model';

/** A few words, for a column. */
export const FLAG_WORDS: Record<GroupFlag | 'escaped', string> = {
  orphan: 'orphaned',
  leaderless: 'shell gone',
  runaway: 'runaway',
  'held-pipe': 'holds pipe',
  'memory-hog': 'memory hog',
  'spawn-storm': 'spawn storm',
  'session-ended': 'session over',
  escaped: 'left its group',
};

/** One clause: what it means for the user. */
export const FLAG_MEANING: Record<GroupFlag | 'escaped', string> = {
  orphan: 'its parent exited and PID 1 adopted it: nothing will stop it for you',
  leaderless: "its tool call's shell has exited; what it started lives on",
  runaway:
    'it has wanted a CPU (running or waiting for one) above the runaway threshold for the whole window',
  'held-pipe': "it holds the agent's output pipe: the agent may hang",
  'memory-hog': 'it uses more memory than the configured limit',
  'spawn-storm': 'it keeps starting processes faster than any build does (a fork or crash loop)',
  'session-ended': 'the agent session that started it is over',
  escaped: "it left its tool call's group (setsid) but came from it",
};

export function flagWords(flag: string): string {
  return (FLAG_WORDS as Record<string, string>)[flag] ?? flag;
}

/**
 * A group's flags as a person reads them: `leaderless` goes without saying next to `orphan` (the
 * orphans' parent was the tool call's shell, now gone), so it is left out there.
 */
export function flagsInWords(flags: readonly string[]): string[] {
  const shown = flags.includes('orphan') ? flags.filter((f) => f !== 'leaderless') : flags;
  return shown.map(flagWords);
}
