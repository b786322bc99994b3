import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { createCorralService, type RunningService } from '../../main/core/create-service';
import { hookClientPath, perlProgram } from '../../main/core/hooks-setup/hook-client-script';
import { resolveHookCommand, type HookCommandResolution } from '../../main/core/hooks-setup/hooks-service';
import { shellQuote } from '../../main/core/hooks-setup/shell-quote';
import { resolveDataDir } from '../../main/core/storage/data-dir';
import { dispatch } from '../../main/transport/dispatch';
import type { HooksChangeView, HooksOverview } from '../../shared/hooks';
import { FakeAgent } from '../support/fake-agent';
import { removeDir } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const COMMAND = '/usr/local/bin/corral';
const dirs: string[] = [];
let running: RunningService | null = null;
afterEach(async () => {
  await running?.stop();
  running = null;
  for (const dir of dirs.splice(0)) removeDir(dir);
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** A real service whose agents' settings live in a temp HOME, Claude Code's in a temp CLAUDE_CONFIG_DIR. */
function start(command: HookCommandResolution = { command: COMMAND }) {
  const home = tempDir('corral-hooks-home-');
  const claudeDir = tempDir('corral-claude-config-');
  running = createCorralService({
    config: { path: '(test)', settings: { ...DEFAULT_SETTINGS, pollIntervalMs: 200 }, errors: [] },
    dataDir: tempDir('corral-data-'),
    persistSettings: false,
    hooks: { place: { env: { CLAUDE_CONFIG_DIR: claudeDir }, home }, command },
  });
  const service = running.service;
  const ask = async <T>(channel: string, payload: unknown): Promise<T> => {
    const answer = await dispatch(service, channel, payload);
    if (!answer.ok) throw new Error(answer.error);
    return answer.payload as T;
  };
  return { home, claudeDir, ask, running };
}

const USER_SETTINGS = `{
  "model": "opus",
  "hooks": { "PostToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "~/bin/audit.sh" }] }] }
}
`;

describe('hooks:status and hooks:install against real settings files', () => {
  it('reports each agent and its file, marks the agents seen running, and installs only on a real request', async () => {
    const { claudeDir, home, ask } = start();
    const settingsFile = join(claudeDir, 'settings.json');
    writeFileSync(settingsFile, USER_SETTINGS);
    await FakeAgent.start();
    const before = await waitFor('the running agent seen', async () => {
      const status = await ask<HooksOverview>('hooks:status', undefined);
      return status.agents.find((a) => a.agent === 'claude-code')?.seen ? status : undefined;
    });
    expect(before.command).toBe(COMMAND);
    expect(before.agents.map((a) => [a.agent, a.path, a.state, a.seen])).toEqual([
      ['claude-code', settingsFile, 'absent', true],
      ['codex', join(home, '.codex', 'hooks.json'), 'absent', false],
      ['gemini-cli', join(home, '.gemini', 'settings.json'), 'absent', false],
      ['qwen-code', join(home, '.qwen', 'settings.json'), 'absent', false],
    ]);

    // The offer's preview: the diff, and the file untouched.
    const preview = await ask<HooksChangeView>('hooks:install', { agent: 'claude-code', dryRun: true });
    expect(preview).toMatchObject({ agent: 'claude-code', path: settingsFile, changed: true, backup: null });
    // Claude Code's hooks run the hook client in the data directory, which falls back to COMMAND.
    const client = hookClientPath(resolveDataDir({ CLAUDE_CONFIG_DIR: claudeDir }, process.platform, home));
    const hook = (event: string): string =>
      `${perlProgram()!} ${shellQuote(client)} hook claude-code ${event}`;
    expect(preview.diff).toContain(`"command": "${hook('PostToolUse')}"`);
    expect(readFileSync(settingsFile, 'utf8')).toBe(USER_SETTINGS);
    expect(readdirSync(claudeDir)).toEqual(['settings.json']);
    expect(existsSync(client)).toBe(false);

    // The click: written, backed up first as the CLI does, the user's hook kept.
    const installed = await ask<HooksChangeView>('hooks:install', { agent: 'claude-code', dryRun: false });
    expect(installed.changed).toBe(true);
    expect(installed.backup).toMatch(/settings\.json\.corral-backup-\d+$/);
    expect(readFileSync(installed.backup!, 'utf8')).toBe(USER_SETTINGS);
    const after = JSON.parse(readFileSync(settingsFile, 'utf8')) as {
      model: string;
      hooks: Record<string, Array<{ hooks: Array<{ command?: string; url?: string }> }>>;
    };
    expect(after.model).toBe('opus');
    expect(after.hooks.PostToolUse!.map((g) => g.hooks[0]!.command ?? g.hooks[0]!.url)).toEqual([
      '~/bin/audit.sh',
      hook('PostToolUse'),
    ]);
    expect(readFileSync(client, 'utf8')).toContain(`exec ${COMMAND} hook "$1" "$2"`);
    const status = await ask<HooksOverview>('hooks:status', undefined);
    expect(status.agents[0]).toMatchObject({ state: 'installed' });
    // No PreToolUse: Claude Code's PostToolUse carries duration_ms.
    expect(status.agents[0]!.events).toEqual({
      PostToolUse: hook('PostToolUse'),
      PostToolUseFailure: hook('PostToolUseFailure'),
      SessionEnd: hook('SessionEnd'),
      Stop: hook('Stop'),
    });
    // Installing twice changes nothing.
    expect(
      await ask<HooksChangeView>('hooks:install', { agent: 'claude-code', dryRun: false }),
    ).toMatchObject({
      changed: false,
      backup: null,
    });
  });

  it('leaves an invalid settings file untouched with a clear error, and refuses a request without dryRun', async () => {
    const { home, ask } = start();
    const gemini = join(home, '.gemini', 'settings.json');
    mkdirSync(join(home, '.gemini'));
    writeFileSync(gemini, '{ "theme": "dark", ');
    const status = await ask<HooksOverview>('hooks:status', undefined);
    expect(status.agents.find((a) => a.agent === 'gemini-cli')).toMatchObject({ state: 'invalid' });
    // Installed here: the agent's own settings directory exists (Gemini's); Codex's does not.
    expect(status.agents.find((a) => a.agent === 'gemini-cli')?.installed).toBe(true);
    expect(status.agents.find((a) => a.agent === 'codex')?.installed).toBe(false);
    expect(status.cliCommand).toBe(COMMAND);
    const change = await ask<HooksChangeView>('hooks:install', { agent: 'gemini-cli', dryRun: false });
    expect(change.changed).toBe(false);
    expect(change.error).toContain(gemini);
    expect(readFileSync(gemini, 'utf8')).toBe('{ "theme": "dark", ');
    await expect(ask('hooks:install', { agent: 'codex' })).rejects.toThrow(
      'hooks:install: payload.dryRun is required',
    );
    expect(existsSync(join(home, '.codex'))).toBe(false);
  });

  it('without a corral command to run, says why and writes nothing', async () => {
    const { claudeDir, ask } = start(resolveHookCommand({ PATH: tempDir('corral-empty-path-') }));
    const status = await ask<HooksOverview>('hooks:status', undefined);
    expect(status.command).toBeNull();
    expect(status.cliCommand).toBeNull();
    expect(status.commandProblem).toContain('the corral command was not found on PATH');
    const change = await ask<HooksChangeView>('hooks:install', { agent: 'claude-code', dryRun: false });
    expect(change.error).toContain('CORRAL_HOOK_COMMAND');
    expect(existsSync(join(claudeDir, 'settings.json'))).toBe(false);
  });
});

describe('resolveHookCommand', () => {
  it('prefers CORRAL_HOOK_COMMAND, else finds an executable corral on PATH', () => {
    const bin = tempDir('corral-bin-');
    const notExecutable = tempDir('corral-bin-');
    writeFileSync(join(notExecutable, 'corral'), '#!/bin/sh\n');
    writeFileSync(join(bin, 'corral'), '#!/bin/sh\n');
    chmodSync(join(bin, 'corral'), 0o755);
    const PATH = `relative/dir:${notExecutable}:${bin}`;
    expect(resolveHookCommand({ PATH, CORRAL_HOOK_COMMAND: ' corral ' })).toEqual({ command: 'corral' });
    expect(resolveHookCommand({ PATH })).toEqual({ command: join(bin, 'corral') });
    expect(resolveHookCommand({ PATH: notExecutable })).toHaveProperty('problem');
  });
});
