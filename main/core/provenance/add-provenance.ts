import { isShellName } from '../../../shared/shells';
import type { GroupView, ListeningPort, SessionRef, ToolCallRef } from '../../../shared/model';
import type { AgentMatcher, SessionMarks } from '../analysis/agent-matcher';
import type { Attribution } from '../analysis/attribution';
import type { LiveAgent } from '../analysis/session-ended';
import { isIdleAgentMachinery } from '../analysis/agent-services';
import { commandOf } from '../analysis/grouping';
import type { ProcessRecord } from '../model/process-record';
import type { ProcessSampler } from '../sampling/process-sampler';
import type { NoteRefusal } from '../files/untrusted-file';
import { AgentFiles } from './agent-files';
import { matchToolCall } from './match-tool-call';
import { matchConfiguredServer } from './match-mcp-server';
import { classifyRole } from './mcp-server';
import { ProblemNotes } from './problem-notes';
import { PROCESS_REFRESH_MS, ProcessReads } from './process-reads';
import { ProjectRoots } from './project-root';
import { ReadBudget } from './read-budget';
import { linkSessionsToAgents, type SessionLinkFacts } from './session-links';
import { forkedWrapperCommand, wrappedCommand } from './wrapped-command';

export { PROCESS_REFRESH_MS, QUIET_PROCESS_REFRESH_MS } from './process-reads';

export interface ProvenanceOptions {
  /** Read Claude Code transcripts for tool calls' descriptions (setting `provenance.transcripts`). */
  transcripts: boolean;
}

export interface ProvenanceInputs {
  records: readonly ProcessRecord[];
  attributions: ReadonlyMap<number, Attribution>;
  matcher: AgentMatcher;
  sampler: Pick<ProcessSampler, 'platform' | 'readCwd' | 'listeningPorts' | 'runMark'>;
  /** Read every process's ports, not only agents' (someone asked which process holds a port). */
  portsOfAll?: boolean;
}

/**
 * How long one of the monitor's passes may spend reading agents' files (session files, transcripts, MCP
 * configurations, `.git` lookups): past it, the pass's remaining groups get what their environment says,
 * and their files are read in a later pass. Every open is non-blocking and checked
 * (files/untrusted-file.ts), so no single read waits on a FIFO or a device; this bounds many slow ones
 * (a cold disk, a deep tree) so that they cannot hold the watch loop.
 */
export const MONITOR_FILE_READ_BUDGET_MS = 1000;

/** What one pass found for all its groups, before each group is decorated. */
interface PassFacts {
  byPid: ReadonlyMap<number, ProcessRecord>;
  cwds: ReadonlyMap<number, string | null>;
  ports: ReadonlyMap<number, ListeningPort[]>;
  marks: ReadonlyMap<number, SessionMarks>;
  links: ReadonlyMap<string, number>;
  liveAgents: ReadonlySet<string>;
  sessionOfAgent: ReadonlyMap<number, string>;
}

/**
 * Fills in where each agent group came from: cwd, listening ports and role of its processes, and the
 * group's session, project, tool call and ports. Keeps caches (projects, transcripts, homes) between
 * calls, so one instance should live as long as its caller (the monitor, or one CLI command).
 * Only agents' processes are read, unless `portsOfAll`.
 */
export class Provenance {
  private readonly projects = new ProjectRoots();
  private readonly notes: ProblemNotes;
  private readonly noteFile: NoteRefusal;
  private readonly budget: ReadBudget;
  private readonly files: AgentFiles;
  private readonly processReads: ProcessReads;
  /** The agent processes the last pass found running, each with the session it was tied to. */
  private agents: readonly LiveAgent[] = [];

  /**
   * `refreshMs`: how long a process's cwd and ports are kept before they are read again. `report`: told
   * once of each problem met (a file refused, a group left undecorated), never once per pass.
   * `readBudgetMs`: how long one pass may read agents' files (MONITOR_FILE_READ_BUDGET_MS for the monitor;
   * a one-shot command reads all it needs).
   */
  constructor(
    private options: ProvenanceOptions,
    private readonly refreshMs = PROCESS_REFRESH_MS,
    private readonly now: () => number = Date.now,
    { report, readBudgetMs = Infinity }: { report?: (message: string) => void; readBudgetMs?: number } = {},
  ) {
    this.notes = new ProblemNotes(report);
    this.budget = new ReadBudget(readBudgetMs, this.notes);
    this.noteFile = (path, refusal) =>
      this.notes.say(
        `${refusal.refused}\0${path}`,
        `not reading ${path} (${refusal.refused}); what it would tell is shown as not known`,
      );
    this.files = new AgentFiles(refreshMs, now, this.budget, this.noteFile);
    this.processReads = new ProcessReads(refreshMs, now);
  }

  setOptions(options: ProvenanceOptions): void {
    this.options = options;
  }

  /**
   * The agent processes the last pass found running, each with the session it runs (pid and start
   * stamp: a caller holding a later sample checks that the same process still runs).
   */
  liveAgents(): readonly LiveAgent[] {
    return this.agents;
  }

  /**
   * Mutates `groups` (the views just built from `inputs.records`) in place. Provenance is decoration:
   * what cannot be found or read is left not known (null), a group whose decoration fails keeps what it
   * had, and nothing here throws, so no group, view or event is ever lost to it.
   */
  addTo(groups: GroupView[], inputs: ProvenanceInputs): void {
    this.budget.begin();
    try {
      this.decorate(groups, inputs);
    } catch (err) {
      this.notes.say(`pass\0${String(err)}`, `left not known this time (${String(err)})`);
    } finally {
      this.budget.end();
    }
  }

  private decorate(groups: GroupView[], inputs: ProvenanceInputs): void {
    const { records, attributions, matcher, sampler } = inputs;
    const byPid = new Map<number, ProcessRecord>();
    for (const r of records) if (r.state !== 'Z') byPid.set(r.pid, r);
    const agentPids = groups
      .filter((g) => g.agent !== null)
      .flatMap((g) => g.processes.filter((p) => p.state !== 'Z').map((p) => p.pid));
    const portPids = inputs.portsOfAll
      ? groups.flatMap((g) => g.processes.filter((p) => p.state !== 'Z').map((p) => p.pid))
      : agentPids;
    const { cwds, ports } = this.processReads.read(agentPids, portPids, byPid, sampler);

    // Only attributed processes can carry a session: walk those, not the whole table.
    const marks = new Map<number, SessionMarks>();
    const facts: SessionLinkFacts[] = [];
    for (const [pid, a] of attributions) {
      const r = byPid.get(pid);
      if (!r) continue;
      const m = matcher.sessionOf(a.agent, r.markers);
      if (m) marks.set(pid, m);
      let sessionId = m?.sessionId ?? null;
      if (a.isAgent && sessionId === null && a.agent === 'claude-code')
        sessionId = this.files.sessionFileOf(r, sampler.platform);
      facts.push({ pid, sessionId, isAgent: a.isAgent, agentPid: a.agentPid });
    }
    const links = linkSessionsToAgents(facts);
    this.agents = liveAgentsOf(attributions, byPid, links);
    const liveAgents = new Set<string>();
    for (const [pid, a] of attributions) if (runsSessions(a, byPid.get(pid))) liveAgents.add(a.agent);
    const sessionOfAgent = new Map<number, string>();
    for (const [session, pid] of links) if (!sessionOfAgent.has(pid)) sessionOfAgent.set(pid, session);

    for (const g of groups) {
      try {
        this.decorateGroup(g, { byPid, cwds, ports, marks, links, liveAgents, sessionOfAgent }, inputs);
      } catch (err) {
        g.session ??= null;
        g.toolCall ??= null;
        this.notes.say(
          `group\0${String(err)}`,
          `a group's session and tool call are shown as not known (${String(err)})`,
        );
      }
    }
  }

  private decorateGroup(g: GroupView, pass: PassFacts, inputs: ProvenanceInputs): void {
    const { byPid, cwds, ports, marks, links, liveAgents, sessionOfAgent } = pass;
    const { attributions, matcher } = inputs;
    // Groups no agent owns get nothing read or guessed, only their ports when a port was asked for.
    if (!g.agent && !inputs.portsOfAll) {
      g.session = null;
      g.toolCall = null;
      return;
    }
    for (const p of g.processes) {
      if (cwds.has(p.pid)) p.cwd = cwds.get(p.pid)!;
      const held = ports.get(p.pid);
      if (held) p.ports = held;
      const r = byPid.get(p.pid);
      if (r && g.agent) {
        const { role, mcpServer } = this.roleOf(r, byPid, attributions, marks, matcher, cwds);
        p.role = role;
        if (mcpServer) p.mcpServer = mcpServer;
      } else if (g.agent) p.role = null;
    }
    const union = new Map<string, ListeningPort>();
    for (const p of g.processes) for (const port of p.ports ?? []) union.set(portKey(port), port);
    if (g.processes.some((p) => p.ports !== undefined)) g.ports = [...union.values()];
    if (!g.agent) {
      g.session = null;
      g.toolCall = null;
      return;
    }
    const live = g.processes.filter((p) => byPid.has(p.pid));
    const leader = byPid.get(g.pgid);
    const marked = [leader, ...live.map((p) => byPid.get(p.pid))].find((r) => r && marks.has(r.pid));
    const envSession = marked ? marks.get(marked.pid)! : null;
    let sessionId = envSession?.sessionId ?? null;
    let source: SessionRef['source'] = 'env';
    if (sessionId === null && g.agent.pid !== null && sessionOfAgent.has(g.agent.pid)) {
      sessionId = sessionOfAgent.get(g.agent.pid)!;
      source = 'lineage';
    }
    const linked = sessionId !== null ? links.get(sessionId) : undefined;
    if (linked !== undefined && (g.agent.pid === null || !byPid.has(g.agent.pid))) g.agent.pid = linked;
    const cwd = [leader?.pid, ...live.map((p) => p.pid)]
      .map((pid) => (pid === undefined ? undefined : cwds.get(pid)))
      .find((c) => typeof c === 'string');
    g.session =
      sessionId === null
        ? null
        : {
            id: sessionId,
            source,
            project: cwd && this.mayRead() ? this.projects.projectOf(cwd) : null,
            agentAlive: agentAliveOf(g.agent, attributions, byPid, liveAgents),
          };
    g.toolCall = g.containsAgent
      ? null
      : this.toolCallOf(
          g,
          leader,
          envSession,
          cwd ?? null,
          marked ?? leader ?? byPid.get(live[0]?.pid ?? -1),
          matcher,
          byPid,
        );
    markBackgroundTask(g);
  }

  private roleOf(
    r: ProcessRecord,
    byPid: ReadonlyMap<number, ProcessRecord>,
    attributions: ReadonlyMap<number, Attribution>,
    marks: ReadonlyMap<number, SessionMarks>,
    matcher: AgentMatcher,
    cwds: ReadonlyMap<number, string | null>,
  ): ReturnType<typeof classifyRole> {
    const a = attributions.get(r.pid);
    let top: ProcessRecord | null = null;
    for (let cur: ProcessRecord | undefined = r, hops = 0; cur && hops < 64; hops++) {
      const parent = byPid.get(cur.ppid);
      if (!parent || parent.startKey > cur.startKey || cur.ppid === cur.pid) break;
      if (attributions.get(parent.pid)?.isAgent) {
        top = cur;
        break;
      }
      cur = parent;
    }
    const leaders = [byPid.get(r.pgid), byPid.get(r.sid)];
    const agent = a?.agentPid ? byPid.get(a.agentPid) : undefined;
    // The agent's MCP configuration, read only for its direct non-shell children and reparented processes.
    const configured = (argv: readonly string[], owner: ProcessRecord): string | null =>
      a
        ? matchConfiguredServer(argv, this.files.mcpServersOf(a.agent, owner, cwds.get(owner.pid) ?? null))
        : null;
    const topAgent = top ? byPid.get(top.ppid) : undefined;
    const topToolCallShell = top !== null && matcher.toolCallOf(top.argv) !== null;
    const topIsShell =
      top !== null && (top.sid === top.pid || topToolCallShell || isShellName(top.argv[0] ?? ''));
    return classifyRole({
      isAgent: a?.isAgent === true,
      attributed: a !== undefined,
      topChild: top && {
        argv: top.argv,
        ownSession: top.sid === top.pid,
        toolCallShell: topToolCallShell,
        configured: topAgent && !topIsShell ? configured(top.argv, topAgent) : null,
      },
      // Reparented away from a dead agent: matched against the configuration its own environment and
      // cwd point at (an MCP server inherits both from its agent unless configured otherwise).
      configured: top === null && !(a?.isAgent ?? false) && r.sid !== r.pid ? configured(r.argv, r) : null,
      toolCallMarked:
        (marks.get(r.pid)?.toolCallId ?? null) !== null ||
        [r, ...leaders].some((l) => l !== undefined && matcher.toolCallOf(l.argv) !== null),
      argv: r.argv,
      ownSession: r.sid === r.pid || (agent !== undefined && agent.sid !== r.sid),
    });
  }

  private toolCallOf(
    g: GroupView,
    leader: ProcessRecord | undefined,
    envSession: SessionMarks | null,
    cwd: string | null,
    witness: ProcessRecord | undefined,
    matcher: AgentMatcher,
    byPid: ReadonlyMap<number, ProcessRecord>,
  ): ToolCallRef | null {
    const wrapperCommand = leader ? wrappedCommand(leader, matcher) : forkedWrapperCommand(g, byPid, matcher);
    const readTranscripts = this.options.transcripts && this.mayRead();
    const transcript =
      readTranscripts && envSession && witness ? this.files.transcriptOf(g, envSession, cwd, witness) : null;
    if (transcript) {
      const live = g.processes.filter((p) => p.state !== 'Z');
      const call = matchToolCall(transcript.values(), {
        wrapperCommand,
        processCommands: live.map((p) => p.command),
        shellCommands: live.flatMap((p) => {
          const r = byPid.get(p.pid);
          const inside = r ? wrappedCommand(r, matcher) : null;
          return inside === null ? [] : [inside];
        }),
        startedAt: g.startedAt,
      });
      if (call)
        return {
          id: call.id,
          command: call.command,
          description: call.description,
          startedAt: call.issuedAt,
          ...(call.background ? { background: true } : {}),
        };
    }
    const id = envSession?.toolCallId ?? null;
    if (readTranscripts && g.agent?.name === 'codex' && envSession && id !== null && witness) {
      const call = this.files.codexCall(g, envSession, id, witness);
      if (call) return { id, command: call.command, description: null, startedAt: call.issuedAt };
    }
    if (id === null && wrapperCommand === null) return null;
    return {
      id,
      command: wrapperCommand ?? (leader ? commandOf(leader) : g.processes[0]!.command),
      description: null,
      startedAt: leader?.startedAt ?? g.startedAt,
    };
  }

  private mayRead(): boolean {
    return this.budget.mayRead();
  }
}

function portKey(p: ListeningPort): string {
  return `${p.protocol} ${p.address} ${p.port}`;
}

/** Every live agent process, once per session it is tied to (once, untied, when none). */
/**
 * An agent's process that may be running a session: not its service's machinery (a `claude --bg` service,
 * its pty hosts and unclaimed spares outlive every session and would hold every end of their kind).
 */
function runsSessions(a: Attribution, r: ProcessRecord | undefined): r is ProcessRecord {
  return a.isAgent && r !== undefined && !isIdleAgentMachinery(a.agent, r.argv, r.pid, r.sid);
}

function liveAgentsOf(
  attributions: ReadonlyMap<number, Attribution>,
  byPid: ReadonlyMap<number, ProcessRecord>,
  links: ReadonlyMap<string, number>,
): LiveAgent[] {
  const sessionsOf = new Map<number, string[]>();
  for (const [session, pid] of links) sessionsOf.set(pid, [...(sessionsOf.get(pid) ?? []), session]);
  const agents: LiveAgent[] = [];
  for (const [pid, a] of attributions) {
    const r = byPid.get(pid);
    if (!r || !runsSessions(a, r)) continue;
    for (const sessionId of sessionsOf.get(pid) ?? [null])
      agents.push({ name: a.agent, pid, startKey: r.startKey, sessionId });
  }
  return agents;
}

/**
 * Whether a session's agent runs: known when the group names its agent's pid (alive, or gone), and when
 * no agent of its kind runs at all; otherwise not known (null), since one of those may be running it.
 */
function agentAliveOf(
  agent: { name: string; pid: number | null },
  attributions: ReadonlyMap<number, Attribution>,
  byPid: ReadonlyMap<number, ProcessRecord>,
  liveAgents: ReadonlySet<string>,
): boolean | null {
  if (agent.pid !== null) return attributions.get(agent.pid)?.isAgent === true && byPid.has(agent.pid);
  return liveAgents.has(agent.name) ? null : false;
}

/**
 * A tool call the agent started in the background on purpose is its background task while the session's
 * agent lives (known alive, not guessed); once the agent is gone its processes are tool calls again.
 */
function markBackgroundTask(g: GroupView): void {
  if (!g.toolCall?.background || g.session?.agentAlive !== true) return;
  for (const p of g.processes) if (p.role === 'tool-call') p.role = 'background-task';
}
