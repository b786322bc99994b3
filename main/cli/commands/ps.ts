import { homedir } from 'node:os';
import { COMMAND_SPECS } from '../command-specs';
import { parseCommandArgs } from '../parse-command-args';
import type { GroupView, Settings } from '../../../shared/model';
import {
  groupsOfSession,
  groupsOnPort,
  nothingInSession,
  nothingOnPort,
} from '../../core/provenance/resolve-targets';
import { takeOneShotSnapshot } from '../../core/snapshot/one-shot-snapshot';
import { resolveDataDir } from '../../core/storage/data-dir';
import { loadEndedSessions } from '../../core/storage/ended-sessions';
import { loadAgentTasks } from '../../core/storage/agent-tasks';
import type { AgentTaskList } from '../../core/analysis/agent-tasks';
import type { EndedSession } from '../../core/analysis/session-ended';
import { keepsOrNone } from './keep-list';
import { UsageError } from '../../common/usage-error';
import { portOf, sessionOf } from '../flag-values';
import { recentIncidents } from '../recorded-group-ids';
import { withRecordedStorms } from '../recorded-storms';
import { renderGroups } from '../group-table';
import { portHistory } from '../../../shared/port-history';
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
  const incidents = recentIncidents(dataDirOf());
  const snapshot = await takeOneShotSnapshot(settings, {
    named: incidents,
    portsOfAll: port !== null,
    endedSessions: endedSessionsOrNone(),
    agentTasks: agentTasksOrNone(),
    report: (message) => process.stderr.write(`corral ps: provenance: ${message}\n`),
    keeps: keepsOrNone(),
  });
  // Who holds a port is asked of every process, not only agents'.
  let groups =
    values.all || port !== null ? snapshot.groups : snapshot.groups.filter((g) => g.agent !== null);
  if (port !== null) groups = groupsOnPort(groups, port);
  if (session !== undefined) {
    const matched = groupsOfSession(groups, session);
    if (matched === null)
      throw new UsageError(`--session: '${session}' is the start of more than one session id`);
    groups = matched;
  }
  if (groups.length > 0) groups = withRecordedStorms(groups, incidents);
  // The same words and exit code as `corral kill` with the same --port or --session.
  const nothing =
    groups.length > 0
      ? null
      : port !== null
        ? nothingOnPort(port)
        : session !== undefined
          ? nothingInSession(session)
          : null;
  // Who held the port (and the ports above it) before, from the incidents that recorded it.
  const history = port === null ? null : portHistory(incidents, port, snapshot.sampledAt);
  if (values.json) {
    out(
      JSON.stringify({ sampledAt: snapshot.sampledAt, groups, ...(history ? { portHistory: history } : {}) }),
    );
    return nothing === null ? 0 : 3;
  }
  const earlier = history ? renderPortHistory(port!, history, snapshot.sampledAt) : [];
  if (nothing !== null) {
    out([`${nothing[0]!.toUpperCase()}${nothing.slice(1)}.`, ...earlier].join('\n'));
    return 3;
  }
  out([renderPsTable(groups, snapshot.sampledAt, values.all), ...earlier].join('\n'));
  return 0;
}

function dataDirOf(): string {
  return resolveDataDir(process.env, process.platform, homedir());
}

/** Sessions the agents' SessionEnd hooks reported (corral hooks install); none when unreadable. */
function endedSessionsOrNone(): Map<string, EndedSession> {
  try {
    return loadEndedSessions(dataDirOf());
  } catch {
    return new Map();
  }
}

/** What the agents' Stop hooks said they keep running; none when unreadable. */
function agentTasksOrNone(): Map<string, AgentTaskList> {
  try {
    return loadAgentTasks(dataDirOf());
  } catch {
    return new Map();
  }
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
