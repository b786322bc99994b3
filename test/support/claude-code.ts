import { execFileSync, spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allPids, readProcStat } from './proc';
import { tmpdirEnv } from './test-tmpdir';
import { tempDirForTest, trackGroup } from './spawned-groups';
import { testCacheDir } from './test-cache';

/**
 * The real Claude Code CLI, installed by scripts/install-test-deps.sh outside the checkout:
 * `${XDG_CACHE_HOME:-~/.cache}/corral-test/claude-code-<version>`, the current release (kept in step
 * with the install script). Its bin/claude.exe is a stub until the package's postinstall links the native
 * binary over it, which the install script runs explicitly (it installs with --ignore-scripts).
 */
export const CLAUDE_CODE_VERSION = '2.1.332';

export function claudeCodeDir(): string {
  return join(testCacheDir(), `claude-code-${CLAUDE_CODE_VERSION}`);
}

export function claudeCodeBinary(): string {
  return join(claudeCodeDir(), 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');
}

/** This checkout's built CLI (npm run build; npm test builds first), run as an installed Corral would be. */
export const BUILT_CLI = fileURLToPath(new URL('../../out/main/corral.js', import.meta.url));

/**
 * Why a test of Claude Code with the built CLI is skipped (undefined: it runs): Claude Code's reason,
 * `linuxOnly`'s where the test needs Linux, or a missing build.
 */
export function claudeWithBuiltCliSkipReason(linuxOnly?: string): string | undefined {
  const claude = claudeCodeSkipReason();
  if (claude) return claude;
  if (linuxOnly !== undefined && process.platform !== 'linux') return linuxOnly;
  if (!existsSync(BUILT_CLI)) return `the built CLI ${BUILT_CLI} is missing (run npm run build)`;
  return undefined;
}

/** Undefined when the CLI is usable; otherwise why a test that needs it is skipped. */
export function claudeCodeSkipReason(): string | undefined {
  if (process.platform !== 'linux' && process.platform !== 'darwin')
    return 'the Claude Code end-to-end tests run on Linux and macOS only';
  const bin = claudeCodeBinary();
  try {
    accessSync(bin, constants.X_OK);
  } catch {
    return `Claude Code ${CLAUDE_CODE_VERSION} is not installed at ${bin} (run scripts/install-test-deps.sh; it needs the npm registry)`;
  }
  try {
    // The placeholder stub is a few hundred bytes of script; the native binary is hundreds of MB
    // (ELF on Linux; Mach-O on macOS, 64-bit or universal).
    const magic = readFileSync(bin).subarray(0, 4).toString('hex');
    const native = process.platform === 'darwin' ? ['cffaedfe', 'cafebabe'] : ['7f454c46'];
    if (!native.includes(magic)) {
      return `${bin} is the npm placeholder, not the native binary (its postinstall, install.cjs, did not run)`;
    }
  } catch (err) {
    return `cannot read ${bin}: ${String(err)}`;
  }
  return undefined;
}

export interface ClaudeRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The PGID of the `claude` process (its own session and group), removed by the test's cleanup. */
  pgid: number;
  /** The isolated HOME of this run; its config dir is `<home>/.claude` (CLAUDE_CONFIG_DIR unset). */
  home: string;
  configDir: string;
}

export interface ClaudeRunOptions {
  prompt: string;
  /** The fake Messages API, e.g. startFakeMessagesApi().baseUrl. */
  baseUrl: string;
  /** The session's working directory. */
  cwd: string;
  /** An isolated HOME prepared by the caller (e.g. with settings.json); a fresh one otherwise. */
  home?: string;
  /** Extra variables for the CLI's environment (PATH is set already). */
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Run with Claude Code's default permissions instead of --dangerously-skip-permissions. */
  defaultPermissions?: boolean;
}

/** A fresh HOME for one run, with `.claude/` inside it. */
export function makeClaudeHome(): { home: string; configDir: string } {
  const home = tempDirForTest('corral-claude-home-');
  return { home, configDir: join(home, '.claude') };
}

/**
 * Runs `claude -p <prompt> --dangerously-skip-permissions` against a fake API, in its own session
 * and process group (tracked for removal by PGID). The environment is explicit: nothing of the
 * test runner's own (which may be inside an agent and carry CLAUDECODE markers) leaks in. We run as
 * root, where the CLI refuses to skip permissions unless IS_SANDBOX=1.
 */
export function runClaude(options: ClaudeRunOptions): Promise<ClaudeRun> {
  const home = options.home ?? makeClaudeHome().home;
  const configDir = join(home, '.claude');
  const env: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    // No CLAUDE_CONFIG_DIR: the CLI defaults to $HOME/.claude, and Corral must find it from HOME alone.
    HOME: home,
    ...tmpdirEnv(),
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    IS_SANDBOX: '1',
    // Its per-session folders (tool-call output, CLAUDE_CODE_CHILD_NOTES_DIR) inside the run's HOME, not /tmp.
    CLAUDE_CODE_TMPDIR: join(home, 'tmp'),
    ANTHROPIC_BASE_URL: options.baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-fake-key-for-tests',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CORRAL_TEST_FIXTURE: '1',
    ...options.env,
  };
  const permissions = options.defaultPermissions ? [] : ['--dangerously-skip-permissions'];
  const child = spawn(claudeCodeBinary(), ['-p', options.prompt, ...permissions], {
    cwd: options.cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error('could not spawn claude');
  const pgid = child.pid;
  trackGroup(pgid);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new Error(`claude did not finish within ${options.timeoutMs ?? 90_000} ms\n${stdout}\n${stderr}`),
      );
    }, options.timeoutMs ?? 90_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, pgid, home, configDir });
    });
  });
}

/**
 * The process groups of every live process whose environment carries this run's HOME: the CLI's
 * tool-call shells and whatever they left running (each tool call is its own session and group,
 * so its leftovers have the tool-call shell's PGID/SID). Each is also tracked for removal by PGID.
 */
export function trackGroupsOfRun(home: string): number[] {
  const marker = `HOME=${home}`;
  const pgids = new Set<number>();
  if (process.platform === 'darwin') {
    // macOS: `ps -E` appends each process's environment (readable for the user's own processes).
    const out = execFileSync('ps', ['-axww', '-E', '-o', 'pgid=,stat=,command='], { encoding: 'utf8' });
    for (const line of out.split('\n')) {
      const [pgid, stat] = line.trim().split(/\s+/);
      if (` ${line} `.includes(` ${marker} `) && stat && !stat.startsWith('Z') && Number(pgid) > 1)
        pgids.add(Number(pgid));
    }
    for (const pgid of pgids) trackGroup(pgid);
    return [...pgids];
  }
  for (const pid of allPids()) {
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      continue;
    }
    if (!environ.split('\0').includes(marker)) continue;
    const stat = readProcStat(pid);
    if (stat && stat.state !== 'Z' && stat.pgid > 1) pgids.add(stat.pgid);
  }
  for (const pgid of pgids) trackGroup(pgid);
  return [...pgids];
}

/** What the installed CLI says it is (`claude --version`), for the test output. */
export function claudeCodeVersionLine(): string {
  return execFileSync(claudeCodeBinary(), ['--version'], {
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin' },
  }).trim();
}
