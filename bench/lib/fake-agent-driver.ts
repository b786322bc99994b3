import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { benchEnv, trackGroup } from './populations';
// The same markers the tests' fake agent carries (shape observed in shared/AGENTS.md).
import { CLAUDE_MARKERS } from '../../test/support/fake-agent';
import { waitUntil } from './wait';

const FIXTURE = fileURLToPath(new URL('../../test/fixtures/fake-agent.mjs', import.meta.url));

interface AgentMessage {
  id?: number;
  event: string;
  pid?: number;
  /** performance.now() when this side read the message. */
  seenAt: number;
}

/**
 * Drives test/fixtures/fake-agent.mjs (comm `claude`): each tool call is a detached `bash -c` wrapper,
 * its own session and group, carrying the agent's markers. Every group is tracked for removal by PGID.
 */
export class BenchAgent {
  readonly pid: number;
  private readonly messages = new Map<string, AgentMessage>();
  private nextId = 1;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    this.pid = child.pid!;
    createInterface({ input: child.stdout }).on('line', (line) => {
      const msg = { ...(JSON.parse(line) as Omit<AgentMessage, 'seenAt'>), seenAt: performance.now() };
      this.messages.set(`${msg.id ?? 0}:${msg.event}`, msg);
      if (msg.event === 'spawned' && msg.pid) trackGroup(msg.pid);
    });
  }

  static async start(env: Record<string, string> = {}): Promise<BenchAgent> {
    const child = spawn(process.execPath, [FIXTURE, 'claude', JSON.stringify(CLAUDE_MARKERS)], {
      detached: true,
      argv0: 'claude',
      stdio: ['pipe', 'pipe', 'pipe'],
      env: benchEnv(env),
    });
    trackGroup(child.pid!);
    child.unref();
    const agent = new BenchAgent(child);
    await waitUntil('fake agent ready', () => agent.messages.get('0:ready'));
    return agent;
  }

  /** Starts a tool call; resolves with the wrapper's pid (= its PGID and SID). */
  async toolCall(cmd: string): Promise<{ id: number; pid: number }> {
    const id = this.nextId++;
    this.child.stdin.write(`${JSON.stringify({ id, cmd, detached: true })}\n`);
    const spawned = await waitUntil(
      `tool call ${id} spawned`,
      () => this.messages.get(`${id}:spawned`),
      10_000,
      5,
    );
    return { id, pid: spawned.pid! };
  }

  async exited(id: number, timeoutMs = 30_000): Promise<AgentMessage> {
    return waitUntil(`tool call ${id} exit`, () => this.messages.get(`${id}:exit`), timeoutMs, 5);
  }

  /** Closes stdin so the fixture exits once its groups are gone. */
  close(): void {
    this.child.stdin.end();
  }
}
