// A spawn storm in plain words, for the CLI and the UI: the measured rate first ("starts 240
// processes a minute"); the terms (`spawn-storm`, `birth-rate`) stay in JSON and in tooltips.
import { commandThatMatters } from './command-summary';
import type { SpawnStormFacts } from '../model';
import { withThousands as count } from './thousands';

/** The most started command, shortened to what matters (`/bin/true`, not its shell wrapper). */
function topCommand(f: SpawnStormFacts): string | null {
  const top = f.repeated[0];
  return top ? commandThatMatters(top.command) : null;
}

/** While it lasts: "starts 14,550 processes a minute, mostly `/bin/true`". */
export function spawnStormNow(f: SpawnStormFacts): string {
  const top = topCommand(f);
  if (f.reason === 'member-growth')
    return `has ${count(f.members)} processes alive and still growing${top ? `, mostly ${top}` : ''}`;
  if (f.reason === 'repeated-command' && top)
    return `starts ${top} ${count(f.repeatsPerMinute)} times a minute (${count(f.birthsPerMinute)} processes a minute in all)`;
  return `starts ${count(f.birthsPerMinute)} processes a minute${top ? `, mostly ${top}` : ''}`;
}

/** Afterwards, at its peak: "started up to 14,550 processes a minute; /bin/true ×1,319". */
export function spawnStormPeak(f: SpawnStormFacts): string {
  const repeated = f.repeated
    .slice(0, 3)
    .map((r) => `${commandThatMatters(r.command)} ×${count(r.count)}`)
    .join(', ');
  const what =
    f.reason === 'member-growth'
      ? `had up to ${count(f.peakMembers)} processes alive at once`
      : `started up to ${count(f.peakBirthsPerMinute)} processes a minute`;
  return `${what}${repeated ? `; ${repeated}` : ''}`;
}
