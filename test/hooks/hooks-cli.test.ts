import { mkdtempSync, readFileSync, readdirSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nativeHookClientPath } from '../../main/core/hooks-setup/native-hook-client';
import { installedClientCommand } from '../support/hook-client-run';
import { runCli } from '../support/run-cli';
import { removeDir } from '../support/spawned-groups';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) removeDir(h);
});

function home(): string {
  const h = mkdtempSync(join(tmpdir(), 'corral-hooks-cli-'));
  homes.push(h);
  return h;
}

describe('corral hooks (CLI)', { timeout: 180_000 }, () => {
  it('dry-run prints the diff and writes nothing; install, status and uninstall report each file', async () => {
    const h = home();
    const env = { HOME: h, CORRAL_DATA_DIR: join(h, 'data') };
    const settings = join(h, '.claude', 'settings.json');

    const client = join(h, 'data', 'hooks', 'corral-hook');
    const installed = installedClientCommand(join(h, 'data'));
    const dry = await runCli(['hooks', 'install', '--agent', 'claude-code', '--dry-run'], { env });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`Claude Code: would change ${settings}:`);
    // By default Claude Code's hook runs the hook client (it asks the running Corral, else the one-shot hook).
    expect(dry.stdout).toContain(`+ `);
    expect(dry.stdout).toMatch(
      new RegExp(`^\\+ .*"command": "${installed} hook claude-code PostToolUseFailure"$`, 'm'),
    );
    // PostToolUse carries duration_ms: no PreToolUse hook, one process per tool call.
    expect(dry.stdout).not.toContain('"PreToolUse"');
    expect(dry.stdout).toMatch(
      new RegExp(`^\\+ .*"command": "${installed} hook claude-code PostToolUse"$`, 'm'),
    );
    expect(dry.stdout).not.toContain('"url"');
    expect(existsSync(settings)).toBe(false);
    expect(existsSync(client)).toBe(false);
    expect(existsSync(nativeHookClientPath(join(h, 'data')))).toBe(false);

    // --http: an http hook to the running Corral, the token beside it, and no PreToolUse.
    const dryHttp = await runCli(['hooks', 'install', '--agent', 'claude-code', '--dry-run', '--http'], {
      env,
    });
    expect(dryHttp.code).toBe(0);
    expect(dryHttp.stdout).toContain(`Claude Code: would change ${settings}:`);
    expect(dryHttp.stdout).toMatch(
      /^\+ .*"url": "http:\/\/127\.0\.0\.1:\d+\/hook\/claude-code\/PostToolUse",$/m,
    );
    expect(dryHttp.stdout).toMatch(/^\+ .*"x-corral-token": "[0-9a-f]{64}"$/m);
    expect(dryHttp.stdout).not.toContain('"PreToolUse"');
    expect(dryHttp.stdout).not.toContain('"command"');
    expect(existsSync(settings)).toBe(false);
    // A dry run writes nothing at all: no endpoint file, no data directory, nothing in HOME.
    expect(readdirSync(h)).toEqual([]);

    const install = await runCli(['hooks', 'install', '--agent', 'claude-code'], { env });
    expect(install).toMatchObject({ code: 0 });
    expect(install.stdout).toContain(`Claude Code: installed Corral hooks in ${settings}.`);
    const written = JSON.parse(readFileSync(settings, 'utf8')) as {
      hooks: Record<string, { hooks: { type: string; command: string }[] }[]>;
    };
    expect(Object.keys(written.hooks)).toEqual(['PostToolUse', 'PostToolUseFailure', 'SessionEnd', 'Stop']);
    expect(written.hooks.PostToolUse![0]!.hooks).toEqual([
      { type: 'command', command: `${installed} hook claude-code PostToolUse` },
    ]);
    // The client falls back to this checkout's launcher.
    expect(readFileSync(client, 'utf8')).toMatch(/bin\/corral\.mjs(\\')? hook "\$1" "\$2"'/m);

    const status = await runCli(['hooks', 'status', '--json'], { env });
    const agents = (JSON.parse(status.stdout) as { agents: { agent: string; state: string; path: string }[] })
      .agents;
    expect(agents.map((a) => [a.agent, a.state])).toEqual([
      ['claude-code', 'installed'],
      ['codex', 'absent'],
      ['gemini-cli', 'absent'],
      ['qwen-code', 'absent'],
    ]);

    const uninstall = await runCli(['hooks', 'uninstall', '--agent', 'claude-code'], { env });
    expect(uninstall.stdout).toContain(`Claude Code: removed Corral hooks from ${settings}`);
    expect(JSON.parse(readFileSync(settings, 'utf8'))).toEqual({});
  });

  it('an invalid settings file is named, left untouched, and makes the run exit 1; a bad --agent is a usage error', async () => {
    const h = home();
    const env = { HOME: h, CORRAL_DATA_DIR: join(h, 'data') };
    const gemini = join(h, '.gemini', 'settings.json');
    mkdirSync(join(h, '.gemini'));
    writeFileSync(gemini, '{ "theme": ');
    const all = await runCli(['hooks', 'install'], { env });
    expect(all.code).toBe(1);
    expect(all.stdout).toContain(`Gemini CLI: ${gemini} is not valid JSON (with comments)`);
    expect(all.stdout).toContain('Claude Code: installed Corral hooks');
    expect(readFileSync(gemini, 'utf8')).toBe('{ "theme": ');

    const bad = await runCli(['hooks', 'install', '--agent', 'cursor'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "--agent: expected one of claude-code, codex, gemini-cli, qwen-code or all, got 'cursor'",
    );
  });
});
