import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { HOOK_AGENT_SPECS } from '../../main/core/hooks-setup/hook-agents';
import { hookClientPath, perlProgram } from '../../main/core/hooks-setup/hook-client-script';
import {
  hooksStatus,
  installHooks,
  uninstallHooks,
  type HooksPlace,
} from '../../main/core/hooks-setup/hooks-setup';
import { mergeHooks } from '../../main/core/hooks-setup/settings-merge';
import { shellQuote } from '../../main/core/hooks-setup/shell-quote';
import { resolveDataDir } from '../../main/core/storage/data-dir';
import { removeDir } from '../support/spawned-groups';
import { describeUnless } from '../support/skip';

// Claude Code's command hooks as `hooks install` writes them by default: the perl client, on
// PostToolUse, PostToolUseFailure, SessionEnd and Stop. PostToolUse carries duration_ms, so the call's
// start needs no PreToolUse hook (one process per tool call fewer).

const PREFIX = "/usr/bin/node '/opt/corral app/out/main/corral.js'";
const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) removeDir(h);
});

// A user's own hooks on PreToolUse and PostToolUse, which no install or upgrade may touch.
const USER_SETTINGS = `{
  "hooks": {
    "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "~/bin/guard.sh" }] }],
    "PostToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "~/bin/audit.sh" }] }]
  }
}
`;

type Groups = Record<string, { matcher?: string; hooks: { type: string; command: string }[] }[]>;

function hooksOf(path: string): Groups {
  return (JSON.parse(readFileSync(path, 'utf8')) as { hooks: Groups }).hooks;
}

function setUp(): { p: HooksPlace; path: string; client: string } {
  const home = mkdtempSync(join(tmpdir(), 'corral-claude-events-'));
  homes.push(home);
  const p = { env: {}, home };
  const path = HOOK_AGENT_SPECS['claude-code'].settingsPath(p.env, home);
  mkdirSync(dirname(path), { recursive: true });
  const client = `${perlProgram()!} ${shellQuote(hookClientPath(resolveDataDir(p.env, process.platform, home)))}`;
  return { p, path, client };
}

describeUnless(perlProgram() === null ? 'no perl for the hook client' : undefined)(
  "Claude Code's client hooks: no PreToolUse",
  () => {
    it('a fresh install hooks PostToolUse, PostToolUseFailure, SessionEnd and Stop, and status says installed', () => {
      const { p, path, client } = setUp();
      writeFileSync(path, USER_SETTINGS);
      expect(installHooks('claude-code', p, PREFIX, false).error).toBeUndefined();
      const hooks = hooksOf(path);
      // Only the user's own PreToolUse hook.
      expect(hooks.PreToolUse).toEqual((JSON.parse(USER_SETTINGS) as { hooks: Groups }).hooks.PreToolUse);
      for (const event of ['PostToolUse', 'PostToolUseFailure', 'SessionEnd', 'Stop']) {
        expect(JSON.stringify(hooks[event])).toContain(`${client} hook claude-code ${event}`);
      }
      const status = hooksStatus('claude-code', p);
      expect(status.state).toBe('installed');
      expect(Object.keys(status.events).sort()).toEqual([
        'PostToolUse',
        'PostToolUseFailure',
        'SessionEnd',
        'Stop',
      ]);
    });

    it("an older install (the client on PreToolUse too) still counts as installed, and install upgrades it in place, the user's hooks untouched", () => {
      const { p, path, client } = setUp();
      // What the previous Corral wrote: the client on every event, PreToolUse included.
      const spec = HOOK_AGENT_SPECS['claude-code'];
      writeFileSync(
        path,
        mergeHooks(USER_SETTINGS, spec, (e) => `${client} hook claude-code ${e}`, path),
      );
      expect(hooksOf(path).PreToolUse).toHaveLength(2);
      expect(hooksStatus('claude-code', p).state).toBe('installed');

      const upgraded = installHooks('claude-code', p, PREFIX, false);
      expect(upgraded).toMatchObject({ changed: true });
      expect(upgraded.diff).toContain(`-`);
      const hooks = hooksOf(path);
      const user = (JSON.parse(USER_SETTINGS) as { hooks: Groups }).hooks;
      expect(hooks.PreToolUse).toEqual(user.PreToolUse);
      expect(hooks.PostToolUse![0]).toEqual(user.PostToolUse![0]);
      expect(hooks.PostToolUse).toHaveLength(2);
      expect(hooksStatus('claude-code', p).state).toBe('installed');
      // Once upgraded, installing again changes nothing, and uninstall gives the user's file back.
      expect(installHooks('claude-code', p, PREFIX, false).changed).toBe(false);
      uninstallHooks('claude-code', p, false);
      expect(readFileSync(path, 'utf8')).toBe(USER_SETTINGS);
    });

    it('an older install whose PreToolUse hook was the only one there: the event goes with it', () => {
      const { p, path, client } = setUp();
      const spec = HOOK_AGENT_SPECS['claude-code'];
      writeFileSync(
        path,
        mergeHooks('', spec, (e) => `${client} hook claude-code ${e}`, path),
      );
      installHooks('claude-code', p, PREFIX, false);
      expect(Object.keys(hooksOf(path)).sort()).toEqual([
        'PostToolUse',
        'PostToolUseFailure',
        'SessionEnd',
        'Stop',
      ]);
    });

    it("Codex drops its PreToolUse hook too (its start from the transcript); an older install's counts until reinstalled", () => {
      const { p, client } = setUp();
      const spec = HOOK_AGENT_SPECS.codex;
      const path = spec.settingsPath(p.env, p.home);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(
        path,
        mergeHooks('', spec, (e) => `${client} hook codex ${e}`, path),
      );
      expect(hooksStatus('codex', p)).toMatchObject({ state: 'installed' });
      expect(Object.keys(hooksStatus('codex', p).events).sort()).toEqual([
        'PostToolUse',
        'PreToolUse',
        'SessionEnd',
      ]);
      installHooks('codex', p, PREFIX, false);
      expect(hooksStatus('codex', p)).toMatchObject({ state: 'installed' });
      expect(Object.keys(hooksStatus('codex', p).events).sort()).toEqual(['PostToolUse', 'SessionEnd']);
    });
  },
);
