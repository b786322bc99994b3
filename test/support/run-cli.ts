import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chosenSqliteDriver } from './spawned-groups';
import { tmpdirEnv } from './test-tmpdir';

const CLI = fileURLToPath(new URL('../../main/cli/corral.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real `corral` CLI (from source, through tsx) as a child process. */
export function runCli(
  args: string[],
  {
    env = {},
    timeoutMs = 60_000,
    command = [process.execPath, TSX, CLI],
    stdin,
  }: {
    env?: Record<string, string>;
    timeoutMs?: number;
    command?: string[];
    /** What the CLI reads on stdin (a hook's payload); none when not given. */
    stdin?: string;
  } = {},
): Promise<CliResult> {
  const [file, ...prefix] = command;
  return new Promise((resolve) => {
    const child = execFile(
      file!,
      [...prefix, ...args],
      {
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? '/root',
          ...tmpdirEnv(),
          ...chosenSqliteDriver(),
          ...env,
        },
        timeout: timeoutMs,
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : 1
          : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}
