import { COMMAND_SPECS } from '../command-specs';
import { parseCommandArgs } from '../parse-command-args';
import type { GroupView, Settings } from '../../../shared/model';
import { groupsNow } from '../../core/facade/groups-now';
import { UsageError } from '../../common/usage-error';
import { portOf, sessionOf } from '../flag-values';
import { keepsRefused } from '../keeps-refused';
import { withRecordedStorms } from '../recorded-storms';
import { renderGroups } from '../group-table';
import { portHistory } from '../../../shared/words/port-history';
import { renderPortHistory } from '../port-history-text';
import { terminal, type Terminal } from '../terminal';

export async function runPs(
  args: string[],
  settings: Settings,
  out: (text: string) => void,
): Promise<number> {
  const { values } = parseCommandArgs(COMMAND_SPECS.ps, args);
  const port = values.port === undefined ? null : portOf(values.port);
  const session = values.session === undefined ? undefined : sessionOf(values.session);
  const found = await groupsNow(settings, {
    all: values.all,
    ...(port === null ? {} : { port }),
    ...(session === undefined ? {} : { session }),
    report: (message) => process.stderr.write(`corral ps: provenance: ${message}\n`),
    keepsRefused,
  });
  if (found === null)
    throw new UsageError(`--session: '${session}' is the start of more than one session id`);
  const { incidents, nothing, sampledAt } = found;
  const groups = found.groups.length > 0 ? withRecordedStorms(found.groups, incidents) : found.groups;
  // Who held the port (and the ports above it) before, from the incidents that recorded it.
  const history = port === null ? null : portHistory(incidents, port, sampledAt);
  if (values.json) {
    out(JSON.stringify({ sampledAt, groups, ...(history ? { portHistory: history } : {}) }));
    return nothing === null ? 0 : 3;
  }
  const earlier = history ? renderPortHistory(port!, history, sampledAt) : [];
  if (nothing !== null) {
    out([`${nothing[0]!.toUpperCase()}${nothing.slice(1)}.`, ...earlier].join('\n'));
    return 3;
  }
  out([renderPsTable(groups, sampledAt, values.all), ...earlier].join('\n'));
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
