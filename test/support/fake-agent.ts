import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cleanEnv, trackGroup } from './spawned-groups';
import { waitFor } from './wait-for';

const FIXTURE = fileURLToPath(new URL('../fixtures/fake-agent.mjs', import.meta.url));

export const CLAUDE_MARKERS = {
  CLAUDECODE: '1',
  CLAUDE_CODE_ENTRYPOINT: 'cli',
  CLAUDE_CODE_SESSION_ID: '3f0e5a52-7a53-4c55-9a51-2f1d8f6c0b11',
  AI_AGENT: 'claude-code_2.1.332_agent',
};

interface AgentMessage {
  id?: number;
  event: string;
  pid?: number;
  code?: number | null;
  stdout?: string;
}

/** The tool_use id the fake agent writes in its transcript for its n-th tool call. */
export const fakeToolUseId = (n: number): string => `toolu_fake${String(n).padStart(4, '0')}`;

export interface ToolCall {
  /** PID of the `bash -c` wrapper, which is also its PGID and SID. */
  pid: number;
  exited: () => Promise<AgentMessage>;
  closed: () => Promise<AgentMessage>;
}

/** Drives test/fixtures/fake-agent.mjs. The agent and every tool call it starts are removed by PGID. */
export class FakeAgent {
  readonly pid: number;
  private readonly messages: AgentMessage[] = [];
  private nextId = 1;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    this.pid = child.pid!;
    createInterface({ input: child.stdout }).on('line', (line) => {
      const msg = JSON.parse(line) as AgentMessage;
      this.messages.push(msg);
      if (msg.event === 'spawned' && msg.pid) trackGroup(msg.pid);
    });
  }

  /** Starts the agent in its own session (like a terminal would), with markers for its tool calls. */
  static async start({
    name = 'claude',
    markers = CLAUDE_MARKERS,
    env = {},
    cwd,
    sessionFile = false,
    transcript = false,
    asUser = [],
  }: {
    name?: string;
    /** A value "$PID" becomes the agent's own pid (Claude Code's CLAUDE_PID). */
    markers?: Record<string, string>;
    env?: Record<string, string>;
    cwd?: string;
    /** Write `$CLAUDE_CONFIG_DIR/sessions/<pid>.json` as Claude Code does while it runs. */
    sessionFile?: boolean;
    /** Append each tool call to the session's transcript in Claude Code's record shape. */
    transcript?: boolean;
    /** A command that execs the rest as another user (AS_NOBODY): the agent keeps its pid. */
    asUser?: readonly string[];
  } = {}): Promise<FakeAgent> {
    const options = JSON.stringify({ sessionFile, transcript });
    const argv = [process.execPath, FIXTURE, name, JSON.stringify(markers), options];
    const [file, ...args] = [...asUser, ...argv];
    const child = spawn(file!, args, {
      detached: true,
      argv0: name,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: cleanEnv(env),
      ...(cwd ? { cwd } : {}),
    });
    trackGroup(child.pid!);
    const agent = new FakeAgent(child);
    await waitFor('fake agent ready', () => agent.messages.some((m) => m.event === 'ready'));
    return agent;
  }

  /** Starts `argv` as a stdio child (how agents start MCP servers); returns its pid. */
  async startServer(argv: string[]): Promise<number> {
    const id = this.nextId++;
    this.child.stdin.write(`${JSON.stringify({ id, server: argv })}\n`);
    const started = await waitFor(`server ${id} started`, () =>
      this.messages.find((m) => m.id === id && m.event === 'server'),
    );
    return started.pid!;
  }

  async toolCall(
    cmd: string,
    {
      detached = true,
      description,
      background = false,
    }: { detached?: boolean; description?: string; background?: boolean } = {},
  ): Promise<ToolCall> {
    const id = this.nextId++;
    this.child.stdin.write(`${JSON.stringify({ id, cmd, detached, description, background })}\n`);
    const spawned = await waitFor(`tool call ${id} spawned`, () =>
      this.messages.find((m) => m.id === id && m.event === 'spawned'),
    );
    const event = (name: string) => () =>
      waitFor(`tool call ${id} ${name}`, () => this.messages.find((m) => m.id === id && m.event === name), {
        timeoutMs: 30_000,
      });
    return { pid: spawned.pid!, exited: event('exit'), closed: event('close') };
  }
}
