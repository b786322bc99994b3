import type {
  ListedSession,
  ListedSessions,
  ListedSessionsSource,
  RunningAgent,
} from '../analysis/listed-sessions';
import { listSourcesOf, readProcessFacts, type ListSource, type ProcessFacts } from './list-sources';
import { SESSION_LIST_READERS } from './readers';
import { runListCommand, type ListCommand, type ListCommandResult } from './run-list-command';
import type { SessionListReader } from './session-list-reader';

export interface AgentSessionListsOptions {
  run?: (command: ListCommand) => Promise<ListCommandResult>;
  readers?: ReadonlyMap<string, SessionListReader>;
  facts?: (pid: number) => ProcessFacts | null;
  now?: () => number;
  /** Told once of each problem (a list that did not answer, a format not known), never once per read. */
  report?: (message: string) => void;
}

interface SourceState {
  at: number;
  reading: Promise<void> | null;
  /** The sessions the source's last good read listed as running. */
  running: Map<string, ListedSession> | null;
}

/** Ends remembered at most; the oldest are forgotten first. */
const MAX_GONE = 1000;

/**
 * The agents' own session lists (`claude agents --json`, `qwen sessions ps --json`), read by running the
 * agent's CLI as the agent's user: off the poll (`observe` starts a read and never waits), at most every
 * reader's interval, only while an agent of that kind runs, each read bounded by its timeout. A read that
 * fails or prints a format not known changes nothing and is noted once. A session a list named and no
 * longer names (or names as ended) is gone: the agent's own word that the session is over.
 */
export class AgentSessionLists implements ListedSessionsSource {
  private readonly sources = new Map<string, SourceState>();
  private readonly gone = new Map<string, { agent: string; goneAt: number }>();
  private readonly noted = new Set<string>();
  private readonly run: (command: ListCommand) => Promise<ListCommandResult>;
  private readonly readers: ReadonlyMap<string, SessionListReader>;
  private readonly facts: (pid: number) => ProcessFacts | null;
  private readonly now: () => number;

  constructor(private readonly options: AgentSessionListsOptions = {}) {
    this.run = options.run ?? runListCommand;
    this.readers = options.readers ?? SESSION_LIST_READERS;
    this.facts = options.facts ?? readProcessFacts;
    this.now = options.now ?? Date.now;
  }

  /** Starts a read of each list that is due for the agents running now; never waits. */
  observe(agents: readonly RunningAgent[]): void {
    // Off the poll: nothing here may reach the caller, not even a report that throws.
    this.readDue(agents).catch(() => undefined);
  }

  /**
   * Reads each due list and waits for them (one-shot commands), each bounded by its reader's timeout, or
   * stopped sooner by `stop` (a one-shot command does not wait long).
   */
  async readDue(agents: readonly RunningAgent[], stop?: AbortSignal): Promise<void> {
    const wanted = agents.filter((a) => this.readers.has(a.agent));
    const sources = wanted.length === 0 ? [] : listSourcesOf(wanted, this.readers, this.facts);
    const live = new Set(sources.map((s) => s.key));
    // A list whose agent no longer runs tells nothing now.
    for (const key of this.sources.keys()) if (!live.has(key)) this.sources.delete(key);
    const reads: Promise<void>[] = [];
    for (const source of sources) {
      const state = this.sources.get(source.key) ?? { at: -Infinity, reading: null, running: null };
      this.sources.set(source.key, state);
      if (state.reading) reads.push(state.reading);
      else if (this.now() - state.at >= source.reader.minIntervalMs) {
        state.at = this.now();
        state.reading = this.read(source, state, stop).finally(() => (state.reading = null));
        reads.push(state.reading);
      }
    }
    await Promise.all(reads);
  }

  /** What the lists say now. */
  current(): ListedSessions {
    const running = new Map<string, ListedSession>();
    for (const state of this.sources.values()) for (const [id, s] of state.running ?? []) running.set(id, s);
    return { running, gone: new Map(this.gone) };
  }

  private async read(source: ListSource, state: SourceState, stop?: AbortSignal): Promise<void> {
    const { reader } = source;
    const result = await this.run({
      ...source.command,
      timeoutMs: reader.timeoutMs,
      ...(stop ? { stop } : {}),
    });
    const what = `${source.command.file} ${source.command.args.join(' ')}`;
    if ('problem' in result) return this.note(`${reader.agent}\0run`, `${what}: ${result.problem}`);
    const parsed = reader.parse(result.stdout);
    if ('problem' in parsed)
      return this.note(`${reader.agent}\0format`, `${what}: a format not known (${parsed.problem})`);
    const at = this.now();
    const running = new Map<string, ListedSession>();
    for (const s of parsed) {
      if (s.ended) this.end(s.sessionId, s.agent, at);
      else {
        running.set(s.sessionId, s);
        this.gone.delete(s.sessionId);
      }
    }
    for (const [id, s] of state.running ?? []) if (!running.has(id)) this.end(id, s.agent, at);
    state.running = running;
  }

  private end(sessionId: string, agent: string, at: number): void {
    if (this.gone.has(sessionId)) return;
    if (this.gone.size >= MAX_GONE) this.gone.delete(this.gone.keys().next().value!);
    this.gone.set(sessionId, { agent, goneAt: at });
  }

  private note(key: string, message: string): void {
    if (this.noted.has(key)) return;
    this.noted.add(key);
    this.options.report?.(`the agent's session list: ${message}; shown as not known`);
  }
}
