import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cleanEnv, trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function fixture(name: string): string {
  return fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
}

/** `node --import tsx <fixture>`, to put after a privilege or namespace wrapper (setpriv, unshare). */
export function nodeWithTsx(name: string, ...args: string[]): string[] {
  return [process.execPath, '--import', 'tsx', fixture(name), ...args];
}

/**
 * A fixture on a full disk: a tmpfs of `size` mounted on `mount` in a private mount namespace, which
 * exists only for the fixture and vanishes with it.
 */
export function nodeWithTsxOnTmpfs(size: string, mount: string, name: string, ...args: string[]): string[] {
  const script = `mount -t tmpfs -o size=${size} corral-test-full "$1" && shift && exec "$@"`;
  return [
    'unshare',
    '--mount',
    '--propagation',
    'private',
    'sh',
    '-c',
    script,
    'sh',
    mount,
    ...nodeWithTsx(name, ...args),
  ];
}

export interface FixtureProcess {
  pid: number;
  child: ChildProcess;
  /** Stdout lines so far. */
  lines: string[];
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts a command as the leader of its own process group, removed by PGID after the test. */
export function startFixture(argv: string[]): FixtureProcess {
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: cleanEnv(),
  });
  if (child.pid === undefined) throw new Error(`could not spawn ${argv.join(' ')}`);
  trackGroup(child.pid);
  const lines: string[] = [];
  let stderr = '';
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { pid: child.pid, child, lines, stderr: () => stderr, exit };
}

/** Runs a fixture to completion and parses the JSON report on its last stdout line. */
export async function runFixture<T>(argv: string[], timeoutMs = 30_000): Promise<T> {
  const run = startFixture(argv);
  let ended: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void run.exit.then((e) => (ended = e));
  await waitFor(`${argv.join(' ')} to finish`, () => ended !== undefined, { timeoutMs });
  if (ended!.code !== 0) {
    throw new Error(`${argv.join(' ')} ended with ${ended!.code ?? ended!.signal}: ${run.stderr()}`);
  }
  return JSON.parse(run.lines.at(-1)!) as T;
}
