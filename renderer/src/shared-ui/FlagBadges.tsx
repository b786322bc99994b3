import type { GroupView } from '../../../shared/model';
import { flagWords } from '../../../shared/words/flag-words';
import { flagHelp } from './flag-help';

interface FlagBadgesProps {
  flags: readonly string[];
  /** The group the flags are on: lets held-pipe say whose pipe it is. */
  group?: Pick<GroupView, 'processes' | 'spawnStorm'>;
}

export function FlagBadges({ flags, group }: FlagBadgesProps) {
  if (flags.length === 0) return null;
  return (
    <span className="badges">
      {flags.map((flag) => (
        <span key={flag} className={`badge badge-${flag}`} data-flag={flag} title={flagHelp(flag, group)}>
          {flagWords(flag)}
        </span>
      ))}
    </span>
  );
}
