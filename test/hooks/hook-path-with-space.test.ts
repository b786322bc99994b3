import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOOK_AGENTS, HOOK_AGENT_SPECS, type HookAgent } from '../../main/core/hooks-setup/hook-agents';
import { installAgentHooks, resolveHookCommand } from '../../main/core/hooks-setup/hooks-service';
import { wantedEvents } from '../../main/core/hooks-setup/hooks-setup';
import { shellWords } from '../../main/core/hooks-setup/hook-program-check';
import { corralHookOf } from '../../main/core/hooks-setup/settings-merge';
import { isAlive } from '../support/proc';
import { runCli } from '../support/run-cli';
import { cleanEnv, spawnGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { writeCodexFunctionCall } from '../support/codex-transcript';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs';

// Hooks installed with a `corral` whose path holds a space, run as the agents run them: the written
// command string through a POSIX shell (`sh -c`, and `bash -c` for the agents that use bash).

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const tempDir = tempDirsRemovedAfterEach();

/** Every Corral hook command an agent's settings file holds, by the agent's event name. */
function installedCommands(agent: HookAgent, home: string, env: Record<string, string>): Map<string, string> {
  const file = HOOK_AGENT_SPECS[agent].settingsPath(env, home);
  const settings = JSON.parse(readFileSync(file, 'utf8')) as {
    hooks: Record<string, { hooks: { command?: string }[] }[]>;
  };
  const out = new Map<string, string>();
  for (const [event, groups] of Object.entries(settings.hooks)) {
    for (const g of groups) for (const h of g.hooks) if (corralHookOf(h.command)) out.set(event, h.command!);
  }
  return out;
}

/** The hook command line run as an agent runs it: `<shell> -c <command>`, the payload on stdin. */
function runThroughShell(
  shell: string,
  command: string,
  stdin: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(shell, ['-c', command], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

function payload(session: string, event: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    ...extra,
    session_id: session,
    hook_event_name: event,
    tool_name: 'Bash',
    tool_use_id: `toolu_${session}`,
    tool_input: { command: 'sleep 600 &' },
  });
}

/** Each agent's installed hooks run through its shell: the tool-call pair reports a leftover, SessionEnd records the end. */
async function checkInstalledHooksRun(home: string, data: string): Promise<void> {
  const env = cleanEnv({ HOME: home, CORRAL_DATA_DIR: data });
  for (const agent of HOOK_AGENTS) {
    const commands = installedCommands(agent, home, {});
    const spec = HOOK_AGENT_SPECS[agent];
    expect([...commands.keys()].sort()).toEqual(wantedEvents(agent).sort());
    const shell = agent === 'codex' ? '/bin/sh' : '/bin/bash';
    const end = spec.events.find((e) => e.role === 'session-end')!.event;
    const session = randomUUID();
    const ended = await runThroughShell(shell, commands.get(end)!, payload(session, end), env);
    expect(ended, `${agent} ${end} through ${shell} -c`).toEqual({ code: 0, stdout: '', stderr: '' });
    const endedLines = readFileSync(join(data, 'hooks', 'ended-sessions.jsonl'), 'utf8');
    expect(endedLines).toContain(`"sessionId":"${session}"`);
  }

  // Claude Code's and Codex's tool calls through `sh -c` (their client, falling back to the one-shot
  // hook with no Corral running; PostToolUse alone): the note names what the call left running.
  const markers = {
    'claude-code': (session: string) => ({ CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: session }),
    codex: (session: string) => ({ CODEX_CI: '1', CODEX_THREAD_ID: session }),
  };
  for (const agent of ['claude-code', 'codex'] as const) {
    const commands = installedCommands(agent, home, {});
    const session = randomUUID();
    expect(commands.get('PreToolUse'), `${agent} PreToolUse`).toBeUndefined();
    // How long the call ran: Claude Code's payload says it (duration_ms); Codex's transcript says when
    // the model's function call was written, before the command started.
    const transcript = join(data, `rollout-${session}.jsonl`);
    if (agent === 'codex') writeCodexFunctionCall(transcript, `toolu_${session}`, 'sleep 600 &');
    const began = performance.now();
    const tool = spawnGroup('sleep 600 & echo $! > "$DIR/pid"', { env: cleanEnv(markers[agent](session)) });
    const leftover = Number(await tool.ready('pid'));
    await waitFor(`tool shell ${tool.pid} to exit`, () => !isAlive(tool.pid));
    const ran =
      agent === 'codex'
        ? { transcript_path: transcript }
        : { duration_ms: Math.ceil(performance.now() - began) };
    const post = await runThroughShell(
      '/bin/sh',
      commands.get('PostToolUse')!,
      payload(session, 'PostToolUse', ran),
      env,
    );
    expect(post.code, `${agent} PostToolUse`).toBe(0);
    expect(post.stderr).toBe('');
    const note = (JSON.parse(post.stdout) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    expect(note, `${agent} note`).toContain(`pid ${leftover} (process group ${tool.pgid})`);
  }
}

describe('hooks installed with a corral path that holds a space', { timeout: 240_000 }, () => {
  it('from serve or the app (corral found on PATH): every installed hook runs through the shell', async () => {
    const binDir = join(tempDir('corral-space-'), 'my tools', 'bin');
    mkdirSync(binDir, { recursive: true });
    symlinkSync(join(ROOT, 'bin', 'corral.mjs'), join(binDir, 'corral'));
    const home = tempDir('corral-space-home-');
    const data = tempDir('corral-space-data-');

    const resolved = resolveHookCommand({ PATH: `/usr/bin:${binDir}` });
    expect(resolved).toEqual({ command: `'${join(binDir, 'corral')}'` });
    for (const agent of HOOK_AGENTS) {
      const change = installAgentHooks({ agent, dryRun: false }, { env: {}, home }, resolved);
      expect(change.error).toBeUndefined();
      expect(change.changed).toBe(true);
    }
    await checkInstalledHooksRun(home, data);
  });

  it('from the CLI (corral hooks install, run from a checkout whose path holds a space)', async () => {
    const checkout = join(tempDir('corral-space-'), 'corral checkout');
    for (const part of [
      'main',
      'shared',
      'bin',
      'package.json',
      'tsconfig.json',
      'tsconfig.base.json',
      'tsconfig.node.json',
    ]) {
      cpSync(join(ROOT, part), join(checkout, part), { recursive: true });
    }
    symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
    const home = tempDir('corral-space-home-');
    const data = tempDir('corral-space-data-');

    const install = await runCli(['hooks', 'install'], {
      env: { HOME: home, CORRAL_DATA_DIR: data },
      command: [process.execPath, join(checkout, 'bin', 'corral.mjs')],
    });
    expect(install.stderr).toBe('');
    expect(install.code).toBe(0);
    // Claude Code and Codex share the client, which falls back to the checkout's launcher, quoted for the shell.
    const written = installedCommands('claude-code', home, {}).get('PostToolUse')!;
    const words = shellWords(written);
    const client = words[words.indexOf('hook') - 1]!;
    const codexWords = shellWords(installedCommands('codex', home, {}).get('PostToolUse')!);
    expect(codexWords[codexWords.indexOf('hook') - 1]).toBe(client);
    // Quoted for the shell: inside the perl client's string each ' is escaped; the C client holds it as is.
    const launcher = join(checkout, 'bin', 'corral.mjs');
    if (client.endsWith('-native')) expect(readFileSync(client).includes(`'${launcher}'`)).toBe(true);
    else expect(readFileSync(client, 'utf8')).toContain(`\\'${launcher}\\'`);
    await checkInstalledHooksRun(home, data);
  });
});
