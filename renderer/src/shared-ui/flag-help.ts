import type { GroupView } from '../../../shared/model';
import { flagEntry } from '../../../shared/flags';
import { spawnStormNow } from '../../../shared/words/spawn-storm-words';

/** One sentence per flag from the one table (shared/flags.ts): its word, its term in JSON, what to do. */
function helpOf(flag: string): string {
  const entry = flagEntry(flag);
  if (!entry) return `${flag}: flagged by Corral.`;
  const word = `${entry.word[0]!.toUpperCase()}${entry.word.slice(1)}`;
  return `${word}${entry.word === flag ? '' : ` (${flag})`}: ${entry.help}`;
}

/** The tooltip for a flag on a group; held-pipe says whose pipe (which agent pid and fd). */
export function flagHelp(flag: string, group?: Pick<GroupView, 'processes' | 'spawnStorm'>): string {
  const base = helpOf(flag);
  if (flag === 'spawn-storm' && group?.spawnStorm)
    return `${base} Now: ${spawnStormNow(group.spawnStorm)} (reason ${group.spawnStorm.reason}).`;
  if (flag !== 'held-pipe' || !group) return base;
  const holders = group.processes.flatMap((p) => (p.heldPipe ? [p.heldPipe] : []));
  return holders.length > 0 ? `${base} ${holders.join('; ')}.` : base;
}
