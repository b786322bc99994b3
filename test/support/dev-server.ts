// A dev server as the port-history tests start it: real loopback listeners, on ports picked free.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { FakeAgent, type ToolCall } from './fake-agent';

/** Binds `port` (0: any) on loopback and lets it go; the port bound, or null when it was taken. */
function bindOnce(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(null));
    s.listen(port, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

/** A free loopback port P with the `count - 1` ports above it free too (each checked by binding it). */
export async function neighbouringFreePorts(count: number): Promise<number> {
  for (let tries = 0; tries < 20; tries++) {
    const p = await bindOnce(0);
    if (p === null || p + count - 1 > 65_535) continue;
    let free = true;
    for (let n = 1; n < count && free; n++) free = (await bindOnce(p + n)) !== null;
    if (free) return p;
  }
  throw new Error(`no ${count} neighbouring free ports`);
}

/**
 * Writes `name` in `dir`: a Node script that listens on loopback port argv[2] and then writes the
 * ready file argv[3] (what a dev server's "ready" line tells an agent). Returns its path.
 */
export function writeDevServerScript(dir: string, name: string): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    `import { createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
createServer().listen(Number(process.argv[2]), '127.0.0.1', () => writeFileSync(process.argv[3], 'listening\\n'));
`,
  );
  return file;
}

/**
 * A new Claude Code session (`session`) in `project` starts the dev server `script` on `port` in a tool
 * call, which returns once the server listens (as a dev server's "ready" line tells the agent; its ready
 * file goes in `readyDir`). Resolves with the call once its shell has exited.
 */
export async function startDevServerCall(options: {
  script: string;
  port: number;
  project: string;
  session: string;
  readyDir: string;
  description?: string;
}): Promise<ToolCall> {
  const { script, port, project, session, readyDir, description } = options;
  const agent = await FakeAgent.start({
    markers: { CLAUDECODE: '1', CLAUDE_CODE_ENTRYPOINT: 'cli', CLAUDE_CODE_SESSION_ID: session },
    cwd: project,
  });
  const ready = join(readyDir, 'ready');
  const call = await agent.toolCall(
    `${process.execPath} ${script} ${port} ${ready} & until [ -s ${ready} ]; do sleep 0.05; done; echo ready`,
    { description },
  );
  await call.exited();
  return call;
}
