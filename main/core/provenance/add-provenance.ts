import { join } from 'node:path';
import type { GroupView, ListeningPort, SessionRef, ToolCallRef } from '../../../shared/model';
import type { AgentMatcher, SessionMarks } from '../analysis/agent-matcher';
import type { Attribution } from '../analysis/attribution';
import { commandOf } from '../analysis/grouping';
import { identityKey, type ProcessRecord, type ProcessSampler } from '../sampling/process-record';
import type { NoteRefusal } from '../sampling/untrusted-file';
import { readClaudeSessionFile } from './claude-session-files';
import { ClaudeTranscripts, TRANSCRIPT_TAIL_BYTES } from './claude-transcripts';
import { locateCodexSession } from './codex-session-files';
import type { TranscriptCall } from './claude-transcript-records';
import { collectCodexCalls } from './codex-session-records';
import { matchToolCall, START_SLACK_MS } from './match-tool-call';
import { matchConfiguredServer } from './match-mcp-server';
import { McpConfigs } from './mcp-configs';
import { classifyRole } from './mcp-server';
import { OwnerHomes } from './owner-home';
import { ProblemNotes } from './problem-notes';
import { ProjectRoots } from './project-root';
import { locateQwenChat } from './qwen-chat-files';
import { collectQwenCalls } from './qwen-chat-records';
import { linkSessionsToAgents, type SessionLinkFacts } from './session-links';
import { commandInsideEval, commandInsideGeminiScript } from './tool-call-command';

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

const SHELLS = /(^|\/)(ba|z|da|k|fi)?sh$/;

/** How long one process's cwd and ports are trusted before they are read again. */
export const PROCESS_REFRESH_MS = 10_000;
/**
 * How long they are trusted while the process has not run since (its run mark stands): a bound for what
 * another process can change in it all the same (one that shares its descriptor table, CLONE_FILES).
 */
export const QUIET_PROCESS_REFRESH_MS = 60_000;
/**
 * How long one of the monitor's passes may spend reading agents' files (session files, transcripts, MCP
 * configurations, `.git` lookups): past it, the pass's remaining groups get what their environment says,
 * and their files are read in a later pass. Every open is non-blocking and checked
 * (sampling/untrusted-file.ts), so no single read waits on a FIFO or a device; this bounds many slow ones
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

/** When a process's cwd or ports were read, and its run mark then (see ProcessSampler.runMark). */
interface ReadAt {
  pid: number;
  /** Of the record the pid had when read: a pid taken by a newer process is another key. */
  startKey: number | null;
  at: number;
  mark: string | null;
}

/**
 * Fills in where each agent group came from: cwd, listening ports and role of its processes, and the
 * group's session, project, tool call and ports. Keeps caches (projects, transcripts, homes) between
 * calls, so one instance should live as long as its caller (the monitor, or one CLI command).
 * Only agents' processes are read, unless `portsOfAll`.
 */
export class Provenance {
  private readonly projects = new ProjectRoots();
  private readonly homes = new OwnerHomes();
  private readonly transcripts = new ClaudeTranscripts();
  private readonly codexSessions = new ClaudeTranscripts(TRANSCRIPT_TAIL_BYTES, collectCodexCalls);
  private readonly qwenChats = new ClaudeTranscripts(TRANSCRIPT_TAIL_BYTES, collectQwenCalls);
  private readonly mcpConfigs: McpConfigs;
  private readonly notes: ProblemNotes;
  private readonly noteFile: NoteRefusal;
  /** When this pass's file reads must stop (performance.now()), `readBudgetMs` after it began. */
  private readsUntil = Infinity;
  private readonly readBudgetMs: number;

  private readonly cwdCache = new Map<string, ReadAt & { value: string | null }>();
  private readonly portCache = new Map<string, ReadAt & { value: ListeningPort[] }>();
  private readonly sessionFiles = new Map<string, { at: number; value: string | null }>();
  /** Codex session files found, by `<CODEX_HOME>\0<thread id>`; a miss is looked for again next time. */
  private readonly codexSessionPaths = new Map<string, string>();

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
    this.readBudgetMs = readBudgetMs;
    this.notes = new ProblemNotes(report);
    this.noteFile = (path, refusal) =>
      this.notes.say(
        `${refusal.refused}\0${path}`,
        `not reading ${path} (${refusal.refused}); what it would tell is shown as not known`,
      );
    this.mcpConfigs = new McpConfigs(now, undefined, this.noteFile);
  }

  setOptions(options: ProvenanceOptions): void {
    this.options = options;
  }

  /**
   * Mutates `groups` (the views just built from `inputs.records`) in place. Provenance is decoration:
   * what cannot be found or read is left not known (null), a group whose decoration fails keeps what it
   * had, and nothing here throws, so no group, view or event is ever lost to it.
   */
  addTo(groups: GroupView[], inputs: ProvenanceInputs): void {
    this.readsUntil = performance.now() + this.readBudgetMs;
    try {
      this.decorate(groups, inputs);
    } catch (err) {
      this.notes.say(`pass\0${String(err)}`, `left not known this time (${String(err)})`);
    } finally {
      this.readsUntil = Infinity;
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
    const { cwds, ports } = this.readProcesses(agentPids, portPids, byPid, sampler);

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
        sessionId = this.sessionFileOf(r, sampler);
      facts.push({ pid, sessionId, isAgent: a.isAgent, agentPid: a.agentPid });
    }
    const links = linkSessionsToAgents(facts);
    const liveAgents = new Set<string>();
    for (const [pid, a] of attributions) if (a.isAgent && byPid.has(pid)) liveAgents.add(a.agent);
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

  /**
   * cwd and ports, each process's kept for `refreshMs`: a leftover rarely changes either, and reading
   * them costs a readdir and a readlink per descriptor (measured in the bench's provenance rows). Kept
   * longer, up to QUIET_PROCESS_REFRESH_MS, while the sampler's run mark shows the process has not run since
   * they were read: only the process itself changes them.
   */
  private readProcesses(
    agentPids: readonly number[],
    portPids: readonly number[],
    byPid: ReadonlyMap<number, ProcessRecord>,
    sampler: ProvenanceInputs['sampler'],
  ): { cwds: Map<number, string | null>; ports: Map<number, ListeningPort[]> } {
    const now = this.now();
    const keyOf = (pid: number): string => {
      const r = byPid.get(pid);
      return r ? identityKey(pid, r.startKey) : `${pid}`;
    };
    const marks = new Map<number, string | null>();
    const markOf = (pid: number): string | null => {
      if (!marks.has(pid)) marks.set(pid, sampler.runMark?.(pid) ?? null);
      return marks.get(pid)!;
    };
    const readNow = (pid: number): ReadAt => ({
      pid,
      startKey: byPid.get(pid)?.startKey ?? null,
      at: now,
      mark: markOf(pid),
    });
    const stale = (pids: readonly number[], cache: Map<string, ReadAt>): number[] =>
      pids.filter((pid) => {
        const hit = cache.get(keyOf(pid));
        if (hit === undefined) return true;
        const age = now - hit.at;
        const quiet = hit.mark !== null && hit.mark === markOf(pid);
        return age >= (quiet ? Math.max(this.refreshMs, QUIET_PROCESS_REFRESH_MS) : this.refreshMs);
      });
    const freshCwds = sampler.readCwd?.(stale(agentPids, this.cwdCache)) ?? new Map<number, string | null>();
    for (const [pid, cwd] of freshCwds) this.cwdCache.set(keyOf(pid), { ...readNow(pid), value: cwd });
    const portsToRead = stale(portPids, this.portCache);
    const freshPorts = sampler.listeningPorts?.(portsToRead) ?? new Map<number, ListeningPort[]>();
    for (const pid of portsToRead) {
      const held = freshPorts.get(pid);
      if (held) this.portCache.set(keyOf(pid), { ...readNow(pid), value: held });
      else this.portCache.delete(keyOf(pid));
    }
    const cwds = new Map<number, string | null>();
    for (const pid of agentPids) {
      const hit = this.cwdCache.get(keyOf(pid));
      if (hit) cwds.set(pid, hit.value);
    }
    const ports = new Map<number, ListeningPort[]>();
    for (const pid of portPids) {
      const hit = this.portCache.get(keyOf(pid));
      if (hit) ports.set(pid, hit.value);
    }
    // What was read of processes that are gone is dropped. A live process's stays though it was not asked
    // for now: the caller may ask for some groups only (the ones whose views it built afresh).
    for (const cache of [this.cwdCache, this.portCache])
      for (const [k, hit] of cache) if (byPid.get(hit.pid)?.startKey !== hit.startKey) cache.delete(k);
    return { cwds, ports };
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
      a ? matchConfiguredServer(argv, this.mcpServersOf(a.agent, owner, cwds.get(owner.pid) ?? null)) : null;
    const topAgent = top ? byPid.get(top.ppid) : undefined;
    const topToolCallShell = top !== null && matcher.toolCallOf(top.argv) !== null;
    const topIsShell =
      top !== null && (top.sid === top.pid || topToolCallShell || SHELLS.test(top.argv[0] ?? ''));
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
      readTranscripts && envSession && witness ? this.transcriptOf(g, envSession, cwd, witness) : null;
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
      // Codex hands the call's id to its descendants (CODEX_TOOL_CALL_ID): the call is found by id.
      const path = this.codexSessionPath(this.codexHome(witness), envSession.sessionId);
      const call = path
        ? this.codexSessions
            .bashCalls(path, g.startedAt - START_SLACK_MS, { owner: witness.uid, note: this.noteFile })
            .get(id)
        : undefined;
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

  /**
   * The calls of the session's transcript that a leftover started at `g.startedAt` could come from:
   * Claude Code's transcript (under the tool call's CLAUDE_CONFIG_DIR or HOME), Qwen Code's chat
   * records (its QWEN_CODE_PROJECT_DIR, or found under HOME). Null for other agents, or when not found.
   */
  private transcriptOf(
    g: GroupView,
    session: SessionMarks,
    cwd: string | null,
    witness: ProcessRecord,
  ): Map<string, TranscriptCall> | null {
    const since = g.startedAt - START_SLACK_MS;
    if (g.agent?.name === 'claude-code') {
      const path = this.transcripts.locate(this.claudeConfigDir(witness), session.sessionId, cwd);
      return path
        ? this.transcripts.bashCalls(path, since, { owner: witness.uid, note: this.noteFile })
        : null;
    }
    if (g.agent?.name === 'qwen-code') {
      const own = witness.markers.QWEN_CODE_PROJECT_DIR;
      const path = locateQwenChat(own?.startsWith('/') ? own : null, this.homeOf(witness), session.sessionId);
      return path ? this.qwenChats.bashCalls(path, since, { owner: witness.uid, note: this.noteFile }) : null;
    }
    return null;
  }

  /** The session named by a Claude Code process's session file, re-read every `refreshMs`. */
  private sessionFileOf(r: ProcessRecord, sampler: ProvenanceInputs['sampler']): string | null {
    const key = identityKey(r.pid, r.startKey);
    const now = this.now();
    const hit = this.sessionFiles.get(key);
    if (hit && (now - hit.at < this.refreshMs || !this.mayRead())) return hit.value;
    if (!this.mayRead()) return null;
    const value = readClaudeSessionFile(
      this.claudeConfigDir(r),
      r.pid,
      sampler.platform === 'linux' ? r.startKey : null,
      { owner: r.uid, note: this.noteFile },
    );
    if (this.sessionFiles.size > 1024) this.sessionFiles.clear();
    this.sessionFiles.set(key, { at: now, value });
    return value;
  }

  private mcpServersOf(agent: string, owner: ProcessRecord, cwd: string | null) {
    if (!this.mayRead()) return [];
    const home = this.homeOf(owner);
    if (!home) return [];
    const own = (key: string) => (owner.markers[key]?.startsWith('/') ? owner.markers[key] : undefined);
    return this.mcpConfigs.serversOf({
      agent,
      home,
      claudeConfigDir: own('CLAUDE_CONFIG_DIR'),
      codexHome: own('CODEX_HOME'),
      projectDir: cwd && cwd.startsWith('/') ? cwd : null,
      owner: owner.uid,
    });
  }

  /** Whether this pass may still read agents' files (FILE_READ_BUDGET_MS); said once when it may not. */
  private mayRead(): boolean {
    if (performance.now() < this.readsUntil) return true;
    this.notes.say(
      'budget',
      `reading agents' files took over ${this.readBudgetMs} ms in one pass; the rest waits for a later pass`,
    );
    return false;
  }

  private codexSessionPath(codexHome: string, threadId: string): string | null {
    const key = `${codexHome}\0${threadId}`;
    const known = this.codexSessionPaths.get(key);
    if (known) return known;
    const found = locateCodexSession(codexHome, threadId);
    if (found) {
      if (this.codexSessionPaths.size > 1024) this.codexSessionPaths.clear();
      this.codexSessionPaths.set(key, found);
    }
    return found;
  }

  private codexHome(r: ProcessRecord): string {
    const own = r.markers.CODEX_HOME;
    if (own && own.startsWith('/')) return own;
    return join(this.homeOf(r) ?? '/nonexistent', '.codex');
  }

  private claudeConfigDir(r: ProcessRecord): string {
    const own = r.markers.CLAUDE_CONFIG_DIR;
    if (own && own.startsWith('/')) return own;
    return join(this.homeOf(r) ?? '/nonexistent', '.claude');
  }

  /**
   * The home the agent ran with: the process's own HOME (inherited from the agent, which may run with
   * another than its owner's, as in a container or a CI job), else the owner's from passwd.
   */
  private homeOf(r: ProcessRecord): string | null {
    const own = r.markers.HOME;
    if (own && own.startsWith('/')) return own;
    return this.homes.homeOf(r.uid);
  }
}

/**
 * With the tool-call shell gone, the command it ran as a leftover that is the shell's own fork still
 * shows it (`until false; do :; done &` runs in a subshell with the wrapper's command line). Only an
 * agent's recognised wrapper counts: any `bash -c …` in the group may be a command the call started.
 */
function forkedWrapperCommand(
  g: GroupView,
  byPid: ReadonlyMap<number, ProcessRecord>,
  matcher: AgentMatcher,
): string | null {
  for (const p of g.processes) {
    const r = byPid.get(p.pid);
    if (!r || matcher.toolCallOf(r.argv) === null) continue;
    const inside = wrappedCommand(r, matcher);
    if (inside !== null) return inside;
  }
  return null;
}

/** The command a tool-call shell runs: Claude's `eval '…'`, Gemini CLI's script, else a shell's `-c` argument. */
function wrappedCommand(leader: ProcessRecord, matcher: AgentMatcher): string | null {
  const argv = leader.argv;
  if (matcher.toolCallOf(argv) !== null) {
    const inside =
      commandInsideEval(argv.join(' ')) ?? commandInsideGeminiScript(argv[argv.length - 1] ?? '');
    if (inside !== null) return inside;
  }
  if (argv.length < 3 || !SHELLS.test(argv[0]!)) return null;
  const flag = argv.findIndex((a, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(a));
  return flag > 0 && flag + 1 < argv.length ? argv[flag + 1]! : null;
}

function portKey(p: ListeningPort): string {
  return `${p.protocol} ${p.address} ${p.port}`;
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
