import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentMatcher } from '../../main/core/analysis/agent-matcher';
import { isSecretEnv } from '../../main/core/analysis/secret-env';
import { BUILTIN_SIGNATURES, PROVENANCE_ENV } from '../../main/core/analysis/signatures';
import { validateSettings } from '../../main/core/config/validate-settings';
import { HOOK_MARKER_KEYS } from '../../main/core/hooks-setup/hook-agents';
import { runCli } from '../support/run-cli';
import { cleanEnv, removeDir, spawnGroup } from '../support/spawned-groups';

const TOKEN = `tok-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;

describe('secrets in the environment', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach(removeDir));

  it('are never among the variables read, whatever a signature names', () => {
    expect(isSecretEnv('CLAUDE_CODE_MESSAGING_TOKEN')).toBe(true);
    expect(isSecretEnv('GEMINI_API_KEY')).toBe(true);
    expect(isSecretEnv('CLAUDE_CODE_SESSION_ID')).toBe(false);
    const matcher = new AgentMatcher(
      [
        ...BUILTIN_SIGNATURES,
        { name: 'mine', envMarkers: ['MINE', 'CLAUDE_CODE_MESSAGING_TOKEN'], sessionEnv: ['GITHUB_TOKEN'] },
      ],
      [...PROVENANCE_ENV, 'OPENAI_API_KEY'],
    );
    expect(matcher.markerKeys.has('MINE')).toBe(true);
    for (const k of ['CLAUDE_CODE_MESSAGING_TOKEN', 'GITHUB_TOKEN', 'OPENAI_API_KEY'])
      expect(matcher.markerKeys.has(k)).toBe(false);
    expect([...HOOK_MARKER_KEYS].filter(isSecretEnv)).toEqual([]);
  });

  it('a signature that names one is refused with the reason', () => {
    const { errors, settings } = validateSettings({
      agents: [{ name: 'mine', envMarkers: ['MINE'], sessionEnv: ['CLAUDE_CODE_MESSAGING_TOKEN'] }],
    });
    expect(errors.join('\n')).toContain(
      'CLAUDE_CODE_MESSAGING_TOKEN look like secrets; Corral never reads them',
    );
    expect(settings.agents.map((a) => a.name)).not.toContain('mine');
  });

  it("a real process carrying Claude Code's messaging token: ps never shows it, even when a config asks for it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'corral-secret-'));
    dirs.push(dir);
    const config = join(dir, 'corral.json');
    // A signature that would make the token the session id (and so show and store it).
    const mine = {
      name: 'mine',
      envMarkers: ['CLAUDE_CODE_MESSAGING_SOCKET'],
      sessionEnv: ['CLAUDE_CODE_MESSAGING_TOKEN'],
    };
    writeFileSync(config, JSON.stringify({ agents: [mine] }));
    const leftover = spawnGroup('echo ready > "$DIR/up"; exec tail -f /dev/null', {
      env: cleanEnv({
        CLAUDE_CODE_MESSAGING_SOCKET: '/tmp/cc-socks/1.sock',
        CLAUDE_CODE_MESSAGING_TOKEN: TOKEN,
      }),
    });
    await leftover.ready('up');
    for (const args of [
      ['ps', '--json', '--all'],
      ['ps', '--all'],
    ]) {
      const out = await runCli(args, { env: { CORRAL_CONFIG: config, CORRAL_DATA_DIR: dir } });
      expect(out.stdout).toContain('tail -f /dev/null');
      expect(out.stdout + out.stderr).not.toContain(TOKEN);
    }
  });
});
