// `corral ps` and `corral policies`: one look at the process table, decorated as a watching Corral
// decorates it, from what the data directory holds.
import type { GroupView, Incident, Settings } from '../../../shared/model';
import type { AgentTaskList } from '../analysis/agent-tasks';
import type { EndedSession } from '../analysis/session-ended';
import { policyReport, type PolicyReport } from '../policies/policy-report';

export type { PolicyReport } from '../policies/policy-report';
import {
  groupsOfSession,
  groupsOnPort,
  nothingInSession,
  nothingOnPort,
} from '../provenance/resolve-targets';
import { takeOneShotSnapshot } from '../snapshot/one-shot-snapshot';
import { loadAgentTasks } from '../storage/agent-tasks';
import { loadEndedSessions } from '../storage/ended-sessions';
import { keepsOrNone, recentIncidents, userDataDir } from './user-data';

export interface GroupsNow {
  sampledAt: number;
  /** The groups asked for: agents' (or every one), on a port, of a session. */
  groups: GroupView[];
  /** The newest incidents recorded (who held a port, a storm a watch saw). */
  incidents: Incident[];
  /** What `ps` and `kill` both say when a port or a session named no group; null otherwise. */
  nothing: string | null;
}

export interface GroupsQuery {
  /** Groups no agent owns too (always when `port` is given: who holds a port is asked of everyone). */
  all: boolean;
  port?: number;
  session?: string;
  /** A problem reading provenance, said once. */
  report: (message: string) => void;
  /** Why the keeps could not be read (none is shown kept). */
  keepsRefused: (message: string) => void;
}

/** The groups a query names now; null when `session` is the start of more than one session id. */
export async function groupsNow(settings: Settings, q: GroupsQuery): Promise<GroupsNow | null> {
  const incidents = recentIncidents();
  const snapshot = await takeOneShotSnapshot(settings, {
    named: incidents,
    portsOfAll: q.port !== undefined,
    endedSessions: orNone(() => loadEndedSessions(userDataDir()), new Map<string, EndedSession>()),
    agentTasks: orNone(() => loadAgentTasks(userDataDir()), new Map<string, AgentTaskList>()),
    report: q.report,
    keeps: keepsOrNone(q.keepsRefused),
  });
  let groups =
    q.all || q.port !== undefined ? snapshot.groups : snapshot.groups.filter((g) => g.agent !== null);
  if (q.port !== undefined) groups = groupsOnPort(groups, q.port);
  if (q.session !== undefined) {
    const matched = groupsOfSession(groups, q.session);
    if (matched === null) return null;
    groups = matched;
  }
  const nothing =
    groups.length > 0
      ? null
      : q.port !== undefined
        ? nothingOnPort(q.port)
        : q.session !== undefined
          ? nothingInSession(q.session)
          : null;
  return { sampledAt: snapshot.sampledAt, groups, incidents, nothing };
}

/** The configured rules and what each matches right now. */
export async function policiesNow(
  settings: Settings,
  keepsRefused: (message: string) => void,
): Promise<{ sampledAt: number; report: PolicyReport }> {
  const snapshot = await takeOneShotSnapshot(settings, { keeps: keepsOrNone(keepsRefused) });
  return {
    sampledAt: snapshot.sampledAt,
    report: policyReport(settings, snapshot.groups, snapshot.sampledAt),
  };
}

function orNone<T>(read: () => T, none: T): T {
  try {
    return read();
  } catch {
    return none;
  }
}
