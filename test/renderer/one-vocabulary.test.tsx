import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderGroups } from '../../main/cli/group-table';
import { FlagBadges } from '../../renderer/src/shared-ui/FlagBadges';
import { flagHelp } from '../../renderer/src/shared-ui/flag-help';
import { FLAG_TABLE, GROUP_FLAGS, type GroupFlag } from '../../shared/flags';
import { makeGroup } from '../transport/fake-corral-service';

const plain = { colour: false, width: Infinity, height: Infinity };

// Issue 47 "One vocabulary": the CLI said orphaned / shell gone / session over where the badges said
// orphan / leaderless / session-ended. Both now take the word from the one table (shared/flags.ts).
describe('one word for each flag, in the CLI and the page', () => {
  it.each(GROUP_FLAGS.map((f) => [f, FLAG_TABLE[f].word] as const))(
    '%s reads "%s" in ps and on its badge; JSON keeps the name',
    (flag: GroupFlag, word) => {
      const group = makeGroup({ flags: [flag], agent: { name: 'claude-code', pid: null } });
      const row = renderGroups([group], group.startedAt, plain).find((l) => l.includes(String(group.pgid)));
      expect(row).toContain(word);
      const { container } = render(<FlagBadges flags={[flag]} />);
      const badge = container.querySelector(`[data-flag="${flag}"]`)!;
      expect(badge.textContent).toBe(word);
      expect(badge.getAttribute('title')).toBe(flagHelp(flag));
      expect(flagHelp(flag)).toContain(FLAG_TABLE[flag].help);
      expect(JSON.parse(JSON.stringify(group)).flags).toEqual([flag]);
    },
  );
});
