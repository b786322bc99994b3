import type { GroupFlag, ProcessFlag } from '../../../shared/model';

export function FlagBadges({ flags }: { flags: readonly (GroupFlag | ProcessFlag)[] }) {
  if (flags.length === 0) return null;
  return (
    <span className="badges">
      {flags.map((flag) => (
        <span key={flag} className={`badge badge-${flag}`} data-flag={flag}>
          {flag}
        </span>
      ))}
    </span>
  );
}
