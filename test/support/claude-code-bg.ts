import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeCodeBinary, trackGroupsOfRun } from './claude-code';
import { trackGroup } from './spawned-groups';
import { tmpdirEnv } from './test-tmpdir';
import { waitFor } from './wait-for';

const API_KEY = 'sk-ant-fake-key-for-tests';

/**
 * An isolated HOME in which `claude --bg` runs headless (2.1.332, observed): onboarding done, bypass mode
 * accepted and its prompt skipped, the API key approved (by its last 20 characters), `cwd` trusted.
 */
export function prepareBgHome(home: string, cwd: string, settings: Record<string, unknown> = {}): void {
  mkdirSync(join(home, '.claude'), { recursive: true });
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      bypassPermissionsModeAccepted: true,
      customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
      projects: { [cwd]: { hasTrustDialogAccepted: true } },
    }),
  );
  writeFileSync(
    join(home, '.claude', 'settings.json'),
    JSON.stringify({ skipDangerousModePermissionPrompt: true, ...settings }),
  );
}

/** The explicit environment of every `claude` command of a run: nothing of the test runner's own. */
export function bgEnv(home: string, baseUrl: string): Record<string, string> {
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    ...tmpdirEnv(),
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    IS_SANDBOX: '1',
    CLAUDE_CODE_TMPDIR: join(home, 'tmp'),
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: API_KEY,
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CORRAL_TEST_FIXTURE: '1',
  };
}

/**
 * Runs one `claude <args>` command (`--bg …`, `agents --json`, `stop <id>`) to its end, in a group of its
 * own removed by PGID after the test; the service it may start is its own session (the caller tracks it).
 */
export function claudeCommand(
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      claudeCodeBinary(),
      args,
      { env, cwd, timeout: 60_000, killSignal: 'SIGKILL', detached: true } as Parameters<typeof execFile>[2],
      (err, stdout, stderr) => {
        const code = err && typeof err.code === 'number' ? err.code : err ? null : 0;
        if (err && code === null)
          reject(new Error(`claude ${args.join(' ')}: ${String(err)}\n${String(stderr)}`));
        else resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
    if (child.pid !== undefined) trackGroup(child.pid);
  });
}

/**
 * Whatever of a run is still there (a host the service left, a spare it started late) goes now, by the
 * groups that carry its HOME, so no process of it is in the table when the next file runs.
 */
export async function removeProcessesOfRun(home: string): Promise<void> {
  await waitFor(
    'no process of this run left',
    () => {
      const pgids = trackGroupsOfRun(home);
      for (const pgid of pgids) {
        try {
          process.kill(-pgid, 'SIGKILL');
        } catch {
          // ESRCH: already gone.
        }
      }
      return pgids.length === 0 || undefined;
    },
    { timeoutMs: 30_000, intervalMs: 200 },
  );
  rmSync(serviceDirOf(home), { recursive: true, force: true });
}

/**
 * The folder of the service's sockets, which it leaves behind: outside HOME and TMPDIR, at
 * `/tmp/cc-daemon-<uid>/` + the first 8 hex digits of the SHA-256 of the config folder (2.1.332).
 */
function serviceDirOf(home: string): string {
  const digest = createHash('sha256').update(join(home, '.claude')).digest('hex').slice(0, 8);
  return join('/tmp', `cc-daemon-${process.getuid?.() ?? 0}`, digest);
}
