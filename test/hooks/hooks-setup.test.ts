import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HOOK_AGENT_SPECS, type HookAgent } from '../../main/core/hooks-setup/hook-agents';
import { hookClientPath, perlProgram } from '../../main/core/hooks-setup/hook-client-script';
import {
  ensureHttpHookEndpoint,
  hookEndpointPath,
  readHookEndpoint,
} from '../../main/core/hooks-setup/hook-endpoint';
import { shellQuote } from '../../main/core/hooks-setup/shell-quote';
import { mergeHooks } from '../../main/core/hooks-setup/settings-merge';
import { resolveDataDir } from '../../main/core/storage/data-dir';
import {
  hooksStatus,
  installHooks,
  uninstallHooks,
  type HooksPlace,
} from '../../main/core/hooks-setup/hooks-setup';
import { removeDir } from '../support/spawned-groups';

const PREFIX = "/usr/bin/node '/opt/corral app/out/main/corral.js'";
const homes: string[] = [];

function place(env: Record<string, string> = {}): HooksPlace {
  const home = mkdtempSync(join(tmpdir(), 'corral-hooks-home-'));
  homes.push(home);
  return { env, home };
}

function settingsPath(agent: HookAgent, p: HooksPlace): string {
  return HOOK_AGENT_SPECS[agent].settingsPath(p.env, p.home);
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function dataDirOf(p: HooksPlace): string {
  return resolveDataDir(p.env, process.platform, p.home);
}

/** Claude Code's http hook as install writes it: the running Corral's port and the token from the endpoint file. */
function claudeHttpGroup(p: HooksPlace, event: string): unknown {
  const endpoint = readHookEndpoint(dataDirOf(p))!;
  return {
    ...(event === 'SessionEnd' || event === 'Stop' ? {} : { matcher: 'Bash' }),
    hooks: [
      {
        type: 'http',
        url: `http://127.0.0.1:${endpoint.port}/hook/claude-code/${event}`,
        headers: { 'x-corral-token': endpoint.token },
        timeout: 2,
      },
    ],
  };
}

/** Claude Code's default hook: the hook client in the data directory, which falls back to the one-shot command. */
function claudeClientGroup(p: HooksPlace, event: string): unknown {
  const client = `${perlProgram()!} ${shellQuote(hookClientPath(dataDirOf(p)))}`;
  return {
    ...(event === 'SessionEnd' || event === 'Stop' ? {} : { matcher: 'Bash' }),
    hooks: [{ type: 'command', command: `${client} hook claude-code ${event}` }],
  };
}

type ClaudeHooks = Record<string, unknown[] | undefined>;

function hooksIn(text: string): ClaudeHooks {
  return (JSON.parse(text) as { hooks: ClaudeHooks }).hooks;
}

/**
 * Corral's groups in Claude Code's hooks as an install writes them: after the user's own two PostToolUse
 * groups, one on each event but PreToolUse (PostToolUse carries duration_ms): the client, or the opt-in http hook.
 */
function expectCorralGroups(hooks: ClaudeHooks, p: HooksPlace, mode: 'client' | 'http'): void {
  const group = mode === 'http' ? claudeHttpGroup : claudeClientGroup;
  expect(hooks.PreToolUse).toBeUndefined();
  expect(hooks.PostToolUse!.slice(2)).toEqual([group(p, 'PostToolUse')]);
  expect(hooks.PostToolUseFailure).toEqual([group(p, 'PostToolUseFailure')]);
  expect(hooks.SessionEnd).toEqual([group(p, 'SessionEnd')]);
  // After the user's own Stop group.
  expect(hooks.Stop!.slice(1)).toEqual([group(p, 'Stop')]);
}

/** A place whose Claude Code settings hold an older install's one-shot command hooks beside the user's. */
function olderOneShotInstall(): { p: HooksPlace; path: string } {
  const p = place();
  const path = settingsPath('claude-code', p);
  const spec = HOOK_AGENT_SPECS['claude-code'];
  write(
    path,
    mergeHooks(CLAUDE_SETTINGS, spec, (e) => `/old/node /old/corral.js hook claude-code ${e}`, path),
  );
  return { p, path };
}

function backupsBeside(path: string): string[] {
  return readdirSync(dirname(path)).filter((n) => n.includes('.corral-backup-'));
}

afterEach(() => {
  for (const h of homes.splice(0)) removeDir(h);
});

// A user's Claude Code settings with their own Bash hooks on the same events Corral uses.
const CLAUDE_SETTINGS = `{
    "model": "opus",
    "permissions": { "allow": ["Bash(npm test:*)"] },
    "hooks": {
        "PostToolUse": [
            { "matcher": "Bash", "hooks": [{ "type": "command", "command": "~/bin/audit-bash.sh", "timeout": 5 }] },
            { "matcher": "Edit|Write", "hooks": [{ "type": "command", "command": "prettier --write" }] }
        ],
        "Stop": [{ "hooks": [{ "type": "command", "command": "notify-send done" }] }]
    }
}
`;

describe('corral hooks install/uninstall on real settings files', () => {
  it('merges into Claude Code settings beside the user hooks, keeps them, backs up first, and uninstall restores the bytes', () => {
    const p = place();
    const path = settingsPath('claude-code', p);
    write(path, CLAUDE_SETTINGS);

    const installed = installHooks('claude-code', p, PREFIX, false);
    expect(installed.error).toBeUndefined();
    expect(installed.changed).toBe(true);
    expect(readFileSync(installed.backup!, 'utf8')).toBe(CLAUDE_SETTINGS);

    const after = JSON.parse(readFileSync(path, 'utf8')) as {
      model: string;
      permissions: unknown;
      hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
    };
    const before = JSON.parse(CLAUDE_SETTINGS) as typeof after;
    expect(after.model).toBe('opus');
    expect(after.permissions).toEqual(before.permissions);
    // The user's Stop group first and unchanged, Corral's after it (its `background_tasks[]`).
    expect(after.hooks.Stop![0]).toEqual(before.hooks.Stop![0]);
    expect(after.hooks.Stop).toHaveLength(2);
    // The user's two PostToolUse groups first and unchanged, then Corral's own group: the hook client
    // (asks the running Corral, else runs the one-shot hook), on every event but PreToolUse.
    expect(after.hooks.PostToolUse!.slice(0, 2)).toEqual(before.hooks.PostToolUse);
    expectCorralGroups(after.hooks, p, 'client');
    expect(readFileSync(hookClientPath(dataDirOf(p)), 'utf8')).toContain(
      `exec ${PREFIX} hook "$1" "$2"`.replace(/'/g, "\\'"),
    );
    // The file keeps its own four-space indentation.
    expect(readFileSync(path, 'utf8')).toContain('\n        "PostToolUseFailure": [');

    expect(hooksStatus('claude-code', p)).toMatchObject({ state: 'installed', path });

    const removed = uninstallHooks('claude-code', p, false);
    expect(removed.changed).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(CLAUDE_SETTINGS);
    expect(hooksStatus('claude-code', p).state).toBe('absent');
  });

  it('is idempotent: a second install changes nothing and writes no second backup', () => {
    const p = place();
    const path = settingsPath('claude-code', p);
    write(path, CLAUDE_SETTINGS);
    installHooks('claude-code', p, PREFIX, false);
    const once = readFileSync(path, 'utf8');
    const again = installHooks('claude-code', p, PREFIX, false);
    expect(again.changed).toBe(false);
    expect(again.backup).toBeNull();
    expect(readFileSync(path, 'utf8')).toBe(once);
    expect(backupsBeside(path)).toHaveLength(1);
  });

  it('replaces its own entries when Corral moved (a new command path), leaving one group per event', () => {
    const p = place();
    const path = settingsPath('codex', p);
    write(path, CLAUDE_SETTINGS);
    installHooks('codex', p, '/old/node /old/corral.js', false);
    installHooks('codex', p, PREFIX, false);
    const text = readFileSync(path, 'utf8');
    expect(text.split('hook codex PostToolUse')).toHaveLength(2);
    // The old path survives only as the client's fallback, which the new install rewrote.
    expect(readFileSync(hookClientPath(dataDirOf(p)), 'utf8')).toContain(
      `exec ${PREFIX} hook "$1" "$2"`.replace(/'/g, "\\'"),
    );
    uninstallHooks('codex', p, false);
    expect(readFileSync(path, 'utf8')).toBe(CLAUDE_SETTINGS);
  });

  it("replaces an older install's one-shot Claude Code command hooks with the hook client", () => {
    // What Corral wrote before Claude Code's hooks ran the client: the one-shot command on every event.
    const { p, path } = olderOneShotInstall();
    installHooks('claude-code', p, PREFIX, false);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('/old/corral.js');
    expectCorralGroups(hooksIn(text), p, 'client');
    uninstallHooks('claude-code', p, false);
    expect(readFileSync(path, 'utf8')).toBe(CLAUDE_SETTINGS);
  });

  it("replaces an older install's Claude Code command hooks (PreToolUse too) with the opt-in http hooks, and back", () => {
    const { p, path } = olderOneShotInstall();
    // http: an http hook to the running Corral (no process per tool call), and none on PreToolUse.
    expect(installHooks('claude-code', p, PREFIX, false, true)).toMatchObject({ changed: true });
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('/old/corral.js');
    const hooks = hooksIn(text);
    expect(hooks.PostToolUse!.slice(0, 2)).toEqual(hooksIn(CLAUDE_SETTINGS).PostToolUse);
    expectCorralGroups(hooks, p, 'http');
    expect(hooksStatus('claude-code', p)).toMatchObject({ state: 'installed', path });

    // A default install afterwards puts the client back on every event but PreToolUse.
    installHooks('claude-code', p, PREFIX, false);
    expect(readFileSync(path, 'utf8')).not.toContain('http://');
    expectCorralGroups(hooksIn(readFileSync(path, 'utf8')), p, 'client');
    uninstallHooks('claude-code', p, false);
    expect(readFileSync(path, 'utf8')).toBe(CLAUDE_SETTINGS);
  });

  it('creates the settings file when there is none, and uninstall leaves an empty object', () => {
    const p = place();
    const path = settingsPath('claude-code', p);
    const c = installHooks('claude-code', p, PREFIX, false);
    expect(c).toMatchObject({ changed: true, backup: null });
    expect(Object.keys((JSON.parse(readFileSync(path, 'utf8')) as { hooks: object }).hooks)).toEqual([
      'PostToolUse',
      'PostToolUseFailure',
      'SessionEnd',
      'Stop',
    ]);
    uninstallHooks('claude-code', p, false);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({});
    // With http hooks: only the events the running Corral answers.
    const q = place();
    const h = installHooks('claude-code', q, PREFIX, false, true);
    expect(h).toMatchObject({ changed: true, backup: null });
    expect(Object.keys((JSON.parse(readFileSync(h.path, 'utf8')) as { hooks: object }).hooks)).toEqual([
      'PostToolUse',
      'PostToolUseFailure',
      'SessionEnd',
      'Stop',
    ]);
  });

  it('follows CLAUDE_CONFIG_DIR and CODEX_HOME', () => {
    const p = place();
    const claudeDir = join(p.home, 'elsewhere-claude');
    const codexDir = join(p.home, 'elsewhere-codex');
    const q = { env: { CLAUDE_CONFIG_DIR: claudeDir, CODEX_HOME: codexDir }, home: p.home };
    expect(installHooks('claude-code', q, PREFIX, false).path).toBe(join(claudeDir, 'settings.json'));
    expect(installHooks('codex', q, PREFIX, false).path).toBe(join(codexDir, 'hooks.json'));
    const codex = JSON.parse(readFileSync(join(codexDir, 'hooks.json'), 'utf8')) as {
      hooks: Record<string, unknown[]>;
    };
    expect(Object.keys(codex.hooks)).toEqual(['PostToolUse', 'SessionEnd']);
    // Codex runs hooks as commands: the client in the data directory, which falls back to PREFIX.
    const client = hookClientPath(dataDirOf(q));
    expect(codex.hooks.PostToolUse).toEqual([
      {
        matcher: 'Bash',
        hooks: [
          { type: 'command', command: `${perlProgram()!} ${shellQuote(client)} hook codex PostToolUse` },
        ],
      },
    ]);
    expect(readFileSync(client, 'utf8')).toContain(`exec ${PREFIX} hook "$1" "$2"`.replace(/'/g, "\\'"));
  });

  it('keeps comments in Gemini CLI and Qwen Code settings (both accept JSONC) and restores them on uninstall', () => {
    const text = `// my settings
{
  "theme": "GitHub", // dark is too dark
  /* my own hook */
  "hooks": {
    "AfterTool": [
      { "matcher": "write_file", "hooks": [{ "type": "command", "command": "./lint.sh" }] }
    ]
  }
}
`;
    for (const agent of ['gemini-cli', 'qwen-code'] as const) {
      const p = place();
      const path = settingsPath(agent, p);
      write(path, text);
      const c = installHooks(agent, p, PREFIX, false);
      expect(c.error).toBeUndefined();
      const merged = readFileSync(path, 'utf8');
      expect(merged).toContain('// dark is too dark');
      expect(merged).toContain('/* my own hook */');
      expect(merged).toContain('"command": "./lint.sh"');
      const shellEvent = agent === 'gemini-cli' ? 'AfterTool' : 'PostToolUse';
      expect(merged).toContain(`hook ${agent} ${shellEvent}`);
      expect(merged).toContain('"matcher": "run_shell_command"');
      expect(hooksStatus(agent, p).state).toBe('installed');
      uninstallHooks(agent, p, false);
      expect(readFileSync(path, 'utf8')).toBe(text);
    }
  });

  it('leaves invalid files untouched with a clear error: broken JSON, comments where Claude Code takes none, a wrong shape', () => {
    const cases: [HookAgent, string, RegExp][] = [
      ['claude-code', '{ "model": "opus", ', /not valid JSON/],
      [
        'claude-code',
        '{\n  // a comment\n  "model": "opus"\n}\n',
        /not valid JSON: InvalidCommentToken at line 2/,
      ],
      ['codex', '[1, 2]', /does not hold a JSON object/],
      ['gemini-cli', '{ "hooks": { "AfterTool": { "matcher": "x" } } }', /"hooks.AfterTool" is not a list/],
      ['qwen-code', '{ "hooks": "none" }', /"hooks" is not an object/],
    ];
    for (const [agent, text, message] of cases) {
      const p = place();
      const path = settingsPath(agent, p);
      write(path, text);
      const c = installHooks(agent, p, PREFIX, false);
      expect(c.error).toMatch(message);
      expect(c.error).toContain('left untouched');
      expect(c.changed).toBe(false);
      expect(readFileSync(path, 'utf8')).toBe(text);
      expect(backupsBeside(path)).toEqual([]);
      expect(uninstallHooks(agent, p, false).error).toMatch(message);
      expect(hooksStatus(agent, p).state).toBe('invalid');
    }
  });

  it('--dry-run shows the diff and writes nothing (the client hooks, and the opt-in http hooks)', () => {
    const p = place();
    const path = settingsPath('claude-code', p);
    write(path, CLAUDE_SETTINGS);
    const client = hookClientPath(dataDirOf(p));
    for (const http of [false, true]) {
      const c = installHooks('claude-code', p, PREFIX, true, http);
      expect(c.changed).toBe(true);
      expect(c.backup).toBeNull();
      expect(c.diff).toContain(`+ `);
      if (http) {
        // No endpoint yet: the diff shows one install would create, and none is written.
        expect(c.diff).toMatch(/"url": "http:\/\/127\.0\.0\.1:\d+\/hook\/claude-code\/PostToolUse"/);
        expect(c.diff).toMatch(/"x-corral-token": "[0-9a-f]{64}"/);
        expect(c.diff).not.toContain('"PreToolUse"');
      } else {
        expect(c.diff).toContain(
          `"command": "${perlProgram()!} ${shellQuote(client)} hook claude-code PostToolUse"`,
        );
        expect(c.diff).not.toContain('"PreToolUse"');
      }
      // A removed line only ever comes back with the comma a following entry needs.
      const diffLines = c.diff.split('\n');
      // The user's one-line Stop array is the one a Stop hook is appended to: it comes back spread over lines.
      for (const removed of diffLines.filter((l) => l.startsWith('- ') && !l.includes('"Stop": ['))) {
        expect(diffLines).toContain(`+ ${removed.slice(2)},`);
      }
      expect(readFileSync(path, 'utf8')).toBe(CLAUDE_SETTINGS);
      expect(backupsBeside(path)).toEqual([]);
      expect(existsSync(client)).toBe(false);
      // Not even the data directory (which holds the endpoint file) is made.
      expect(existsSync(dataDirOf(p))).toBe(false);
    }
  });

  it('--dry-run --http shows the endpoint there already is, and leaves its file as it was', () => {
    const p = place();
    const endpoint = ensureHttpHookEndpoint(dataDirOf(p));
    expect(endpoint.port).toBeLessThan(1024);
    const file = hookEndpointPath(dataDirOf(p));
    const before = { text: readFileSync(file, 'utf8'), mtimeMs: statSync(file).mtimeMs };
    const c = installHooks('claude-code', p, PREFIX, true, true);
    expect(c.diff).toContain(`"url": "http://127.0.0.1:${endpoint.port}/hook/claude-code/PostToolUse"`);
    expect(c.diff).toContain(`"x-corral-token": "${endpoint.token}"`);
    expect({ text: readFileSync(file, 'utf8'), mtimeMs: statSync(file).mtimeMs }).toEqual(before);
    expect(readdirSync(dirname(file))).toEqual(['endpoint']);
    expect(existsSync(settingsPath('claude-code', p))).toBe(false);
  });

  it('uninstall touches nothing that install did not add (a user hook that merely mentions corral stays)', () => {
    const p = place();
    const path = settingsPath('claude-code', p);
    const text = `{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"corral ps --json > /tmp/x"}]}]}}\n`;
    write(path, text);
    const c = uninstallHooks('claude-code', p, false);
    expect(c.changed).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });
});
