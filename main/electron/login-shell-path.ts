// Apps started from Finder, the Dock or at login get launchd's minimal PATH (/usr/bin:/bin:/usr/sbin:
// /sbin), not the one the user's shell builds (/opt/homebrew/bin, /usr/local/bin, npm's global bin), so
// `corral` is "not found" there. As VS Code and fix-path do, the login shell is asked once, at start:
// `$SHELL -ilc` prints PATH between two markers (rc files may print their own noise around it), within
// a time limit, and what it says is put ahead of the app's own PATH as soon as it is printed.
import { spawn } from 'node:child_process';
import { delimiter } from 'node:path';

const MARKER = '__CORRAL_LOGIN_PATH__';
export const LOGIN_SHELL_TIMEOUT_MS = 5000;

/** The PATH between the markers in a shell's output, or null when the markers are not both there. */
export function parseMarkedPath(output: string): string | null {
  const start = output.indexOf(MARKER);
  const end = output.indexOf(MARKER, start + MARKER.length);
  if (start < 0 || end < 0) return null;
  const path = output.slice(start + MARKER.length, end).trim();
  return path === '' ? null : path;
}

/** The login shell's entries first, then the app's own ones it lacks; empty and duplicate entries dropped. */
export function mergePaths(loginPath: string, ownPath: string | undefined): string {
  const seen = new Set<string>();
  const merged: string[] = [];
  for (const dir of [...loginPath.split(delimiter), ...(ownPath ?? '').split(delimiter)]) {
    if (dir === '' || seen.has(dir)) continue;
    seen.add(dir);
    merged.push(dir);
  }
  return merged.join(delimiter);
}

export type LoginPathResult = { path: string } | { problem: string };

/**
 * Runs the user's login shell (`env.SHELL`, else /bin/zsh as macOS has since 10.15) interactively, as
 * a terminal would, and reads the PATH it builds. The shell runs in a process group of its own, so a
 * timeout ends it and anything its rc files started, by that group.
 */
export function readLoginShellPath(
  env: Readonly<Record<string, string | undefined>> = process.env,
  timeoutMs = LOGIN_SHELL_TIMEOUT_MS,
): Promise<LoginPathResult> {
  const shell = env.SHELL && env.SHELL.startsWith('/') ? env.SHELL : '/bin/zsh';
  const script = `printf '%s%s%s' '${MARKER}' "$PATH" '${MARKER}'`;
  return new Promise((resolve) => {
    // oh-my-zsh: no update prompt while nobody is there to answer it.
    const child = spawn(shell, ['-ilc', script], {
      env: { ...env, DISABLE_AUTO_UPDATE: 'true' },
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    });
    let output = '';
    let settled = false;
    // The shell's group: the shell and whatever its rc files started only to answer this question.
    const endGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const finish = (result: LoginPathResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => {
      endGroup();
      const path = parseMarkedPath(output);
      finish(path ? { path } : { problem: `${shell} -ilc did not answer within ${timeoutMs} ms` });
    }, timeoutMs);
    child.stdout.setEncoding('utf8');
    // The PATH counts as soon as it is printed: a job an rc file left in the background keeps the pipe
    // open, and waiting for it to close would hold the app's start until the time limit.
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      const path = parseMarkedPath(output);
      if (path && !settled) {
        endGroup();
        finish({ path });
      }
    });
    child.on('error', (err) => finish({ problem: `${shell}: ${err.message}` }));
    child.on('close', (code) => {
      const path = parseMarkedPath(output);
      finish(path ? { path } : { problem: `${shell} -ilc printed no PATH (exit ${code})` });
    });
  });
}
