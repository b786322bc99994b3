import type { GroupView } from '../../../shared/model';
import { spawnStormNow } from '../../../shared/spawn-storm-words';

/** One sentence per flag: what it means, why it matters, what to do. */
const FLAG_HELP: Record<string, string> = {
  orphan:
    'Orphan: its agent tool call ended but this process kept running, reparented to init; nobody will stop it for you — stop it if you did not mean to leave it running.',
  leaderless:
    'Leaderless: the process that started this group has exited and its children live on; they usually are leftovers — check the command and stop the group if it is not yours.',
  runaway:
    'Runaway: it has wanted a CPU above the runaway threshold for the whole window (running, or waiting for a busy core), draining battery and slowing the machine; stop it unless it is doing work you want.',
  'held-pipe':
    'Held pipe: it keeps an agent’s output pipe open, so the agent’s tool call cannot finish and may hang; stop this process to release the agent.',
  escaped:
    'Escaped: it left its tool call’s group with setsid but came from it; stopping the group spares it unless you ask to include it.',
  'memory-hog':
    'Memory hog: its memory use is above the configured limit and can push the machine into swap; stop it if it is not needed.',
  'spawn-storm':
    'Spawn storm (spawn-storm): it keeps starting processes faster than any build does, or one command over and over, or ever more of them stay alive — a fork or crash loop; stop it unless you started it on purpose.',
  'session-ended':
    'Session ended: the agent session that started it is over, so nothing will come back for it; stop it unless you still use it.',
};

/** The tooltip for a flag on a group; held-pipe says whose pipe (which agent pid and fd). */
export function flagHelp(flag: string, group?: Pick<GroupView, 'processes' | 'spawnStorm'>): string {
  const base = FLAG_HELP[flag] ?? `${flag}: flagged by Corral.`;
  if (flag === 'spawn-storm' && group?.spawnStorm)
    return `${base} Now: ${spawnStormNow(group.spawnStorm)} (reason ${group.spawnStorm.reason}).`;
  if (flag !== 'held-pipe' || !group) return base;
  const holders = group.processes.flatMap((p) => (p.heldPipe ? [p.heldPipe] : []));
  return holders.length > 0 ? `${base} ${holders.join('; ')}.` : base;
}
