import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDirForTest, trackGroup } from './spawned-groups';
import { tmpdirEnv } from './test-tmpdir';
import { testCacheDir } from './test-cache';

/**
 * The real Codex CLI, installed by scripts/install-test-deps.sh outside the checkout:
 * `${XDG_CACHE_HOME:-~/.cache}/corral-test/codex-0.171.0`. The npm package's `bin/codex.js` runs the
 * native binary of its optional platform package (`@openai/codex-linux-x64`), which needs no
 * install script.
 */
export const CODEX_VERSION = '0.171.0';

export function codexDir(): string {
  return join(testCacheDir(), `codex-${CODEX_VERSION}`);
}

const launcher = (): string => join(codexDir(), 'node_modules', '@openai', 'codex', 'bin', 'codex.js');
const nativeBinary = (): string =>
  join(
    codexDir(),
    'node_modules',
    '@openai',
    'codex-linux-x64',
    'vendor',
    'x86_64-unknown-linux-musl',
    'bin',
    'codex',
  );

/** Undefined when the CLI is usable; otherwise why a test that needs it is skipped. */
export function codexSkipReason(): string | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return 'the Codex end-to-end test runs on Linux x64 only (the native package installed for it)';
  for (const file of [launcher(), nativeBinary()]) {
    try {
      accessSync(file, constants.R_OK);
    } catch {
      return `Codex ${CODEX_VERSION} is not installed (${file} is missing; run scripts/install-test-deps.sh, it needs the npm registry)`;
    }
  }
  return undefined;
}

export interface CodexRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The isolated HOME of this run; CODEX_HOME is `<home>/.codex`. */
  home: string;
  codexHome: string;
}

/**
 * Runs `codex exec <prompt>` (no sandbox, no approvals) against a fake Responses API, in its own session
 * and process group (tracked for removal by PGID), with an explicit environment and a fresh CODEX_HOME
 * whose config.toml names the fake as its model provider.
 */
export function runCodex(options: {
  prompt: string;
  baseUrl: string;
  cwd: string;
  timeoutMs?: number;
  /** Extra variables for the CLI's environment. */
  env?: Record<string, string>;
  /** Called with the run's environment before the CLI starts (e.g. to install hooks into its CODEX_HOME). */
  beforeRun?: (env: Record<string, string>) => void;
  /** More arguments for `codex exec`, before the prompt. */
  args?: string[];
}): Promise<CodexRun> {
  const home = tempDirForTest('corral-codex-home-');
  const codexHome = join(home, '.codex');
  mkdirSync(codexHome);
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "gpt-fake"',
      'model_provider = "fake"',
      '[model_providers.fake]',
      'name = "Fake"',
      `base_url = "${options.baseUrl}"`,
      'env_key = "FAKE_API_KEY"',
      'wire_api = "responses"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ].join('\n'),
  );
  const env = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    ...tmpdirEnv(),
    CODEX_HOME: codexHome,
    FAKE_API_KEY: 'fake-key-for-tests',
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    CORRAL_TEST_FIXTURE: '1',
    ...options.env,
  };
  options.beforeRun?.(env);
  const child = spawn(
    process.execPath,
    [
      launcher(),
      'exec',
      '--skip-git-repo-check',
      '-s',
      'danger-full-access',
      ...(options.args ?? []),
      options.prompt,
    ],
    { cwd: options.cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (child.pid === undefined) throw new Error('could not spawn codex');
  trackGroup(child.pid);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const timeoutMs = options.timeoutMs ?? 90_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`codex did not finish within ${timeoutMs} ms\n${stdout}\n${stderr}`)),
      timeoutMs,
    );
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, home, codexHome });
    });
  });
}
