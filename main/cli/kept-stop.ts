import { keptLabel } from '../../shared/keep-duration';
import type { GroupView, TeardownResult } from '../../shared/model';
import { removeKeeps } from '../core/storage/keeps';
import { cliDataDir } from './commands/keep-list';

/**
 * A kept group stopped from the CLI: a warning on stderr (the user kept it running, and may have forgotten),
 * and once the group is gone, its keep is released (keeps end with their group). A dry run keeps it.
 */
export function noteKeptStop(group: GroupView, result: TeardownResult, now = Date.now()): void {
  if (!group.kept || result.dryRun || result.refused) return;
  process.stderr.write(
    `corral kill: warning: group ${result.groupId} was kept (${keptLabel(group.kept.until, now)}); ` +
      `it was stopped as you asked${result.clean ? ' and its keep is released' : ''}.\n`,
  );
  if (result.clean) removeKeeps(cliDataDir(), group, now);
}
