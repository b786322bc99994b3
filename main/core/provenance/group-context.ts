import type { GroupView, MonitorEvent, SessionRef, Settings } from '../../../shared/model';
import type { AgentMatcher } from '../analysis/agent-matcher';
import type { Attribution } from '../analysis/attribution';
import { MONITOR_FILE_READ_BUDGET_MS, PROCESS_REFRESH_MS, Provenance } from './add-provenance';
import { identityKey } from '../model/identity';
import type { ProcessRecord } from '../model/process-record';
import type { ProcessSampler } from '../sampling/process-sampler';
import { markAgentServices } from '../analysis/agent-services';
import { markMcpGenerations } from '../analysis/mcp-generations';
import { markAgentTasks, type AgentTaskLists } from '../analysis/agent-tasks';
import { markBackgroundTasks } from '../analysis/background-tasks';
import { markKept, type KeepRecord } from '../analysis/kept-marks';
import { flagSessionEnded, heldSessions, type EndedSessions } from '../analysis/session-ended';
import { UnnamedGroups } from './unnamed-groups';
import {
  markListedSessions,
  runningAgentsOf,
  sessionAsListed,
  withListedEnds,
  type ListedSessionsSource,
} from '../analysis/listed-sessions';

/**
 * How long an agent's group's view is kept, at most, with what decoration added to it: its provenance
 * also comes from what the monitor does not watch (transcripts, session and MCP files, cwd and ports).
 * As long as provenance trusts a process's cwd and ports, and so at most every other whole-table sweep
 * while a page looks: decorating every agent's group at each sweep was a fifth of a sweep's cost.
 */
export const DECORATED_VIEW_MAX_AGE_MS = PROCESS_REFRESH_MS;

/** A process as the monitor tracks it: what provenance reads of it. */
export interface TrackedReading {
  record: ProcessRecord;
  attribution: Attribution | null;
  /** When it exited; null while it runs. */
  exitedAt: number | null;
}

/** Builds the monitor's group views; `decorate` gets, in place, the ones built afresh (monitor-views.ts). */
export type BuildViews = (decorate: (built: GroupView[]) => void) => GroupView[];

/** Events worth naming their session and tool call: the ones a person or a script acts on. */
const NAMED_EVENTS = new Set<MonitorEvent['type']>([
  'orphaned',
  'runaway',
  'held-pipe',
  'spawn-storm',
  'incident-opened',
  'incident-closed',
  'group-started',
]);

export interface GroupContextOptions {
  /** The processes the monitor tracks: the service passes them in, provenance reads no monitor. */
  processes: () => Iterable<TrackedReading>;
  /** The monitor's views of the agents' groups, undecorated: an event's group is found among them. */
  agentViews: () => GroupView[];
  sampler: ProcessSampler;
  matcher: () => AgentMatcher;
  settings: () => Settings;
  /** The user's keeps and the sessions the hooks reported ended (storage/decoration-files.ts). */
  files: DecorationSources;
  /** Told once of each problem reading provenance (a file refused, a group left undecorated). */
  report?: (message: string) => void;
  /** The agents' own session lists (agent-sessions/), read off the poll: names, states, ends. */
  sessionLists?: ListedSessionsSource;
}

/** Where the keeps and ended sessions come from; the monitor reads no file itself. */
export interface DecorationSources {
  keeps(): readonly KeepRecord[];
  /** The keep list was just written: read it again whatever its modification time says. */
  keepsChanged(): void;
  endedSessions(): EndedSessions;
  /** What the agents said they keep running (analysis/agent-tasks.ts); absent: nothing said. */
  agentTasks?(): AgentTaskLists;
}

/**
 * What the long-running monitor adds to its group views beyond what it tracks itself: each group's
 * provenance (session, project, tool call, cwd, ports, roles) and the `session-ended` flag from the
 * agent hooks. One instance lives as long as the service, so the provenance caches do too.
 */
export class GroupContext {
  private readonly provenance: Provenance;
  /** Session and tool call per group id, as last found, for the events of groups no view was built for. */
  private readonly named = new Map<string, Pick<MonitorEvent, 'session' | 'toolCall'>>();
  /** The agent's pid of each named group whose session's agent ran then: `recall` asks whether it still does. */
  private readonly namedAgents = new Map<string, { pid: number; startKey: number }>();
  private readonly unnamed = new UnnamedGroups();

  constructor(private readonly options: GroupContextOptions) {
    this.provenance = new Provenance(
      { transcripts: options.settings().provenance?.transcripts ?? true },
      undefined,
      undefined,
      { report: options.report, readBudgetMs: MONITOR_FILE_READ_BUDGET_MS },
    );
  }

  /** Adds provenance and session-ended to views just built from the monitor. */
  decorate(groups: GroupView[]): GroupView[] {
    this.addProvenance(groups);
    return this.markKept(this.flagEnded(groups));
  }

  /**
   * Views `build` makes, decorated: those its cache keeps with their provenance come back as they were,
   * only the ones built afresh are read for it (see monitor/views/group-view-cache.ts).
   */
  currentViews(build: BuildViews): GroupView[] {
    return this.markKept(this.flagEnded(build((built) => this.addProvenance(built))));
  }

  /**
   * `kept` on every group: the user's keeps in force (`corral keep`, "Keep running"); and a live
   * background task without its left-behind flags (analysis/background-tasks.ts). Both run on purpose.
   */
  markKept(groups: GroupView[]): GroupView[] {
    const { files } = this.options;
    const tasks = markAgentTasks(groups, files.agentTasks?.() ?? new Map());
    return markMcpGenerations(
      markAgentServices(markBackgroundTasks(markKept(tasks, files.keeps(), Date.now()))),
    );
  }

  /** Forgets the keep list read last: the service just wrote it (mtime may not move within a tick). */
  keepsChanged(): void {
    this.options.files.keepsChanged();
  }

  /** Provenance, in place, on views just built from the monitor. */
  private addProvenance(groups: GroupView[]): void {
    const { processes, sampler, matcher, settings } = this.options;
    this.provenance.setOptions({ transcripts: settings().provenance?.transcripts ?? true });
    const records: ProcessRecord[] = [];
    const attributions = new Map<number, Attribution>();
    for (const p of processes()) {
      if (p.exitedAt !== null) continue;
      records.push(p.record);
      if (p.attribution) attributions.set(p.record.pid, p.attribution);
    }
    this.provenance.addTo(groups, { records, attributions, matcher: matcher(), sampler });
    this.options.sessionLists?.observe(runningAgentsOf(records, attributions));
    for (const g of groups) {
      if (g.session || g.toolCall) this.named.set(g.id, { ...this.named.get(g.id), ...pick(g) });
      const agent = g.session?.agentAlive === true ? records.find((r) => r.pid === g.agent?.pid) : undefined;
      if (agent) this.namedAgents.set(g.id, { pid: agent.pid, startKey: agent.startKey });
      else this.namedAgents.delete(g.id);
    }
  }

  /**
   * What the agents' own lists say of each group's session, and `session-ended` on the groups whose
   * session the agent hooks recorded as ended (or a list says is gone) and whose agent is gone: an end recorded while the session's agent process (the same pid and start stamp) still runs
   * is held until it exits.
   */
  private flagEnded(views: GroupView[]): GroupView[] {
    const lists = this.options.sessionLists?.current();
    const groups = lists ? markListedSessions(views, lists) : views;
    const recorded = this.options.files.endedSessions();
    const ended = lists ? withListedEnds(recorded, lists) : recorded;
    if (ended.size === 0) return groups;
    const markers = new Map<number, Readonly<Record<string, string>>>();
    for (const p of this.options.processes())
      if (p.exitedAt === null) markers.set(p.record.pid, p.record.markers);
    const running = this.runningProcesses();
    const agents = this.provenance.liveAgents().filter((a) => running.has(identityKey(a.pid, a.startKey)));
    return flagSessionEnded(groups, (pid) => markers.get(pid), ended, heldSessions(groups, agents));
  }

  /**
   * The session and tool call already found for each group (by a view or an event), added without any
   * reading: for the desktop's no-window snapshot, whose notifications name the project and the call.
   */
  recall(groups: GroupView[]): GroupView[] {
    this.askAgain(groups);
    const running = this.namedAgents.size > 0 ? this.runningProcesses() : new Set<string>();
    for (const g of groups) {
      const known = this.named.get(g.id);
      if (!known) continue;
      if (known.session && g.session == null) g.session = this.sessionNow(g.id, known.session, running);
      if (known.toolCall && g.toolCall == null) g.toolCall = known.toolCall;
    }
    const lists = this.options.sessionLists?.current();
    return this.markKept(lists ? markListedSessions(groups, lists) : groups);
  }

  /** The event with its group's session and tool call, where known. */
  decorateEvent(event: MonitorEvent): MonitorEvent {
    let known = this.named.get(event.groupId);
    // Only what was found is kept (decorate records it): a group whose session was not found is asked
    // again, at its next such event and on the no-window snapshot's pace (unnamed-groups.ts).
    if (!known?.session && NAMED_EVENTS.has(event.type)) {
      const group = this.viewOf(event);
      if (group) this.decorate([group]);
      known = this.named.get(event.groupId);
      if (known?.session) this.unnamed.forget(event.groupId);
      else this.unnamed.note(event.groupId, Date.now());
    }
    if (event.type === 'group-ended') {
      this.named.delete(event.groupId);
      this.namedAgents.delete(event.groupId);
      this.unnamed.forget(event.groupId);
    }
    if (!known || (!known.session && !known.toolCall)) return event;
    // What the agent's list says now, as the views and `ps` say it (the names kept are as first found).
    const lists = this.options.sessionLists?.current();
    if (!known.session || !lists) return { ...event, ...known };
    return { ...event, ...known, session: sessionAsListed(known.session, event.agent?.name ?? null, lists) };
  }

  /**
   * The agents' groups whose events found no session, decorated again when due: copies, since the
   * no-window views are cached undecorated. What is found is recorded as any decoration's is.
   */
  private askAgain(groups: readonly GroupView[]): void {
    if (this.unnamed.size === 0) return;
    const due = this.unnamed.due(
      groups.filter((g) => g.agent !== null).map((g) => g.id),
      Date.now(),
    );
    if (due.size === 0) return;
    const copies = groups.filter((g) => due.has(g.id)).map(copyForDecoration);
    this.decorate(copies);
    for (const g of copies) if (g.session) this.unnamed.forget(g.id);
  }

  /**
   * The session as named, its agent's liveness as of now: exited once the agent's process named with it
   * is gone (never alive on an old word: a live background task is no leftover only while it is so).
   */
  private sessionNow(groupId: string, session: SessionRef, running: ReadonlySet<string>): SessionRef {
    if (session.agentAlive !== true) return session;
    const agent = this.namedAgents.get(groupId);
    if (agent === undefined) return { ...session, agentAlive: null };
    return running.has(identityKey(agent.pid, agent.startKey)) ? session : { ...session, agentAlive: false };
  }

  /** The identities (pid and start stamp) of the processes running now. */
  private runningProcesses(): Set<string> {
    const keys = new Set<string>();
    for (const p of this.options.processes())
      if (p.exitedAt === null) keys.add(identityKey(p.record.pid, p.record.startKey));
    return keys;
  }

  private viewOf(event: MonitorEvent): GroupView | undefined {
    return this.options.agentViews().find((g) => g.id === event.groupId || g.pgid === event.pgid);
  }
}

/** A view decoration may change in place (its agent, processes and group fields), copied. */
function copyForDecoration(g: GroupView): GroupView {
  return { ...g, agent: g.agent && { ...g.agent }, processes: g.processes.map((p) => ({ ...p })) };
}

function pick(g: GroupView): Pick<MonitorEvent, 'session' | 'toolCall'> {
  return { ...(g.session ? { session: g.session } : {}), ...(g.toolCall ? { toolCall: g.toolCall } : {}) };
}
