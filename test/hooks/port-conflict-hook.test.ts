import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { GroupView } from '../../shared/model';
import { FakeAgent } from '../support/fake-agent';
import { runCli } from '../support/run-cli';
import { cleanEnv, spawnGroup } from '../support/spawned-groups';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs';
import { waitFor } from '../support/wait-for';

// Real listeners, real hook processes: a tool call's output says EADDRINUSE, and the hook names who
// holds the port (this session's server, another session's leftover, a process no agent started), or
// says nobody does any more.

const CLI = fileURLToPath(new URL('../../main/cli/corral.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));

const tempDir = tempDirsRemovedAfterEach();

/** The note quotes a long command line cut, saying how much it left out (its length depends on temporary paths). */
const CUT = String.raw`(?: \(\d+ more characters not shown\))?`;
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A Node server on a free loopback port; it writes the port to `portFile` once listening. */
function serverScript(): string {
  const dir = tempDir('corral-port-server-');
  const file = join(dir, 'serve.mjs');
  writeFileSync(
    file,
    `import { createServer } from 'node:net';

import { writeFileSync } from 'node:fs';
const server = createServer().listen(0, '127.0.0.1', () => {
  writeFileSync(process.argv[2], server.address().port + '\\n');
});
`,
  );
  return file;
}

function runHook(
  event: string,
  payload: unknown,
  data: string,
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX, CLI, 'hook', 'claude-code', event], {
      env: { PATH: '/usr/bin:/bin', HOME: data, CORRAL_DATA_DIR: data },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
    child.stdin.end(JSON.stringify(payload));
  });
}

/** Claude Code 2.1.332's PostToolUseFailure payload for a Bash call that failed with EADDRINUSE. */
function failurePayload(session: string, port: number): Record<string, unknown> {
  return {
    session_id: session,
    transcript_path: '/nonexistent/transcript.jsonl',
    cwd: '/tmp',
    hook_event_name: 'PostToolUseFailure',
    tool_name: 'Bash',
    tool_input: { command: 'npm run dev', description: 'Start the dev server' },
    tool_use_id: `toolu_${randomUUID().slice(0, 8)}`,
    error: `Exit code 1\nError: listen EADDRINUSE: address already in use 127.0.0.1:${port}\n    at Server.setupListenHandle [as _listen2] (node:net:2390:16)\n  code: 'EADDRINUSE',\n  port: ${port}\n}`,
    is_interrupt: false,
    duration_ms: 840,
  };
}

function noteOf(stdout: string, event: string): string {
  const out = JSON.parse(stdout) as {
    hookSpecificOutput: { hookEventName: string; additionalContext: string };
  };
  expect(out.hookSpecificOutput.hookEventName).toBe(event);
  return out.hookSpecificOutput.additionalContext;
}

/** A fake Claude Code session in a git work tree whose tool call leaves a listening server behind. */
async function sessionServer(): Promise<{
  session: string;
  project: string;
  port: number;
  pgid: number;
  listenerPid: number;
}> {
  const session = randomUUID();
  const project = tempDir('corral-port-project-');
  mkdirSync(join(project, '.git'));
  const agent = await FakeAgent.start({
    markers: { CLAUDECODE: '1', CLAUDE_CODE_ENTRYPOINT: 'cli', CLAUDE_CODE_SESSION_ID: session },
    cwd: project,
  });
  const portFile = join(tempDir('corral-port-ready-'), 'port');
  const call = await agent.toolCall(
    `${process.execPath} ${serverScript()} ${portFile} & echo $! > ${portFile}.pid`,
  );
  await call.exited();
  const port = Number(await waitFor('server port', () => readIfComplete(portFile)));
  const listenerPid = Number(await waitFor('server pid', () => readIfComplete(`${portFile}.pid`)));
  return { session, project, port, pgid: call.pid, listenerPid };
}

function readIfComplete(file: string): string | undefined {
  try {
    const text = readFileSync(file, 'utf8');
    return text.endsWith('\n') ? text.trim() : undefined;
  } catch {
    return undefined;
  }
}

describe('the after-tool hook names who holds a port the output says is in use', { timeout: 120_000 }, () => {
  it("this session's own server: its command, process group, age, and corral kill --port", async () => {
    const data = tempDir('corral-port-data-');
    const s = await sessionServer();
    const post = await runHook('PostToolUseFailure', failurePayload(s.session, s.port), data);
    expect(post.code).toBe(0);
    const note = noteOf(post.stdout, 'PostToolUseFailure');
    expect(note).toContain(`Corral: the output says port ${s.port} is in use`);
    const line = note.split('\n').find((l) => l.startsWith(`- Port ${s.port} `))!;
    expect(line).toMatch(
      new RegExp(
        `^- Port ${s.port} is held by "${escapeRegExp(process.execPath)} [^"]*"${CUT} that this session started \\d[\\dhms]* ago \\(process group ${s.pgid}\\); reuse it, or stop it with \`corral kill --port ${s.port}\`\\.$`,
      ),
    );
    // The group it names is the one corral ps shows on that port.
    const ps = await runCli(['ps', '--port', String(s.port), '--json'], { env: { CORRAL_DATA_DIR: data } });
    const groups = (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups;
    expect(groups.map((g) => g.pgid)).toEqual([s.pgid]);
    expect(groups[0]!.processes.map((p) => p.pid)).toContain(s.listenerPid);
  });

  it("another session's server: which session and project; ended → its leftover, else ask first", async () => {
    const data = tempDir('corral-port-data-');
    const s = await sessionServer();
    const other = failurePayload(randomUUID(), s.port);
    const live = noteOf((await runHook('PostToolUseFailure', other, data)).stdout, 'PostToolUseFailure');
    expect(live).toContain(`- Port ${s.port} is held by "${process.execPath} `);
    expect(live).toContain(`that another Claude Code session ("${s.session.slice(0, 8)}") started `);
    expect(live).toContain(
      ` ago in "${s.project}" (process group ${s.pgid}); that session may still be running and using it: use another port, or ask the user before stopping it with \`corral kill --port ${s.port}\`.`,
    );
    expect(live).not.toContain('this session started');

    // The other session ends (its SessionEnd hook): the server is now that session's leftover.
    const end = await runHook(
      'SessionEnd',
      { session_id: s.session, hook_event_name: 'SessionEnd', reason: 'other' },
      data,
    );
    expect(end).toEqual({ code: 0, stdout: '' });
    const ended = noteOf(
      (
        await runHook(
          'PostToolUse',
          {
            ...other,
            hook_event_name: 'PostToolUse',
            error: undefined,
            tool_response: { stdout: '', stderr: other.error, interrupted: false },
          },
          data,
        )
      ).stdout,
      'PostToolUse',
    );
    expect(ended).toMatch(
      /; that session ended \d[\dhms]* ago, so this is its leftover: reuse it, or stop it with `corral kill --port \d+`\.$/m,
    );
  });

  it('a listener no agent started: said so, and nothing destructive suggested', async () => {
    const data = tempDir('corral-port-data-');
    const plain = spawnGroup(`exec ${process.execPath} ${serverScript()} "$DIR/port"`, { env: cleanEnv() });
    const port = Number(await plain.ready('port'));
    const note = noteOf(
      (await runHook('PostToolUseFailure', failurePayload(randomUUID(), port), data)).stdout,
      'PostToolUseFailure',
    );
    expect(note).toMatch(
      new RegExp(
        `^- Port ${port} is held by "[^"]*"${CUT} \\(process group ${plain.pgid}, started \\d[\\dhms]* ago\\), which no agent started: it is not a leftover\\. Use another port, or ask the user about it; do not stop it\\.$`,
        'm',
      ),
    );
    expect(note).not.toContain('corral kill');
  });

  it('a port nobody holds any more: said to be free', async () => {
    const data = tempDir('corral-port-data-');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const note = noteOf(
      (await runHook('PostToolUseFailure', failurePayload(randomUUID(), port), data)).stdout,
      'PostToolUseFailure',
    );
    expect(note).toContain(`- Port ${port} is free now: nothing listens on it any more`);
  });

  it('an output that names no port in use: nothing said, exit 0', async () => {
    const data = tempDir('corral-port-data-');
    const payload = {
      ...failurePayload(randomUUID(), 1),
      error: 'Exit code 2\nls: cannot access x: No such file or directory',
    };
    expect(await runHook('PostToolUseFailure', payload, data)).toEqual({ code: 0, stdout: '' });
  });
});
