import { parseArgs } from 'node:util';
import type { GroupView, Settings } from '../../../shared/model';
import { takeOneShotSnapshot } from '../../core/snapshot/one-shot-snapshot';
import { renderGroups } from '../group-table';
import { terminal, type Terminal } from '../terminal';

export async function runPs(
  args: string[],
  settings: Settings,
  out: (text: string) => void,
): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { all: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
    strict: true,
    allowPositionals: false,
  });
  const snapshot = await takeOneShotSnapshot(settings);
  const groups = values.all ? snapshot.groups : snapshot.groups.filter((g) => g.agent !== null);
  if (values.json) {
    out(JSON.stringify({ sampledAt: snapshot.sampledAt, groups }));
    return 0;
  }
  out(renderPsTable(groups, snapshot.sampledAt, values.all));
  return 0;
}

export function renderPsTable(
  groups: readonly GroupView[],
  now: number,
  all: boolean,
  term: Terminal = terminal(),
): string {
  if (groups.length === 0) {
    return all ? 'No process groups.' : 'No agent process groups. (`corral ps --all` shows every group.)';
  }
  return renderGroups(groups, now, term).join('\n');
}
