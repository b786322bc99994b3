// "Install command-line tool…": puts a `corral` on the user's PATH, as VS Code installs `code`. The
// command is a small shell script that runs the app's own built CLI (unpacked beside app.asar,
// electron-builder.yml asarUnpack) on a Node from PATH. Never the app's own binary: Electron creates
// NSApplication before any JavaScript runs and aborts (SIGABRT) where Launch Services is out of reach
// (an agent's sandboxed shell, SSH without a GUI login, CI), exactly where hooks and the CLI run; and
// with the RunAsNode fuse off it cannot run as plain Node.
// It goes in the first directory on the login shell's PATH the user can write to; only when there is
// none does it go in /usr/local/bin (on every shell's PATH through /etc/paths) with the administrator's
// password, asked once by macOS.
import {
  accessSync,
  chmodSync,
  constants,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

export const CLI_FLAG = '--cli';
const MARK = '# Installed by Corral ("Install command-line tool…")';

/** The arguments after `--cli` when the app was started as the CLI; null for a normal start. */
export function cliArguments(argv: readonly string[]): string[] | null {
  const at = argv.indexOf(CLI_FLAG);
  return at < 0 ? null : argv.slice(at + 1);
}

function shQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** The app's CLI launcher, unpacked beside app.asar: `<App>.app/Contents/Resources/app.asar.unpacked/bin/corral.mjs`. */
export function unpackedCliLauncher(appExecutable: string): string {
  return join(dirname(appExecutable), '..', 'Resources', 'app.asar.unpacked', 'bin', 'corral.mjs');
}

/** What the CLI says where no Node runs it (exit 127, a shell's "command not found"). */
export const NO_NODE_MESSAGE =
  'corral: the command line needs Node.js 22.12 or later on PATH (brew install node); the Corral app itself needs none';

/**
 * The wrapper: the app's CLI on the first `node` on PATH (then Homebrew's and /usr/local's, which a
 * non-login shell may lack). Without one, a hook exits 0 and says nothing (a hook must never fail the
 * agent; the running app still answers the hook client), anything else says what is missing.
 */
export function cliWrapperScript(appExecutable: string): string {
  return [
    '#!/bin/sh',
    `${MARK}: the corral CLI of the Corral app, run on Node (never the app's binary, which needs a GUI session).`,
    `cli=${shQuote(unpackedCliLauncher(appExecutable))}`,
    'PATH="$PATH:/opt/homebrew/bin:/usr/local/bin"',
    'command -v node >/dev/null 2>&1 && exec node "$cli" "$@"',
    '[ "$1" = hook ] && exit 0',
    `echo ${shQuote(NO_NODE_MESSAGE)} >&2`,
    'exit 127',
    '',
  ].join('\n');
}

export type CliInstallPlan =
  | { target: string; privileged: false; onLoginPath: boolean }
  | { target: string; privileged: true; onLoginPath: true };

const writable = (dir: string): boolean => {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * Where `corral` goes: a directory on the login PATH the user can write to (/usr/local/bin when it is
 * theirs, as with Homebrew on Intel Macs; ~/.local/bin or ~/bin when their shell has it), else
 * /usr/local/bin with privileges.
 */
export function planCliInstall(
  loginPath: string,
  home: string,
  canWrite: (dir: string) => boolean = writable,
): CliInstallPlan {
  const onPath = new Set(loginPath.split(delimiter).filter(Boolean));
  for (const dir of ['/usr/local/bin', join(home, '.local', 'bin'), join(home, 'bin')]) {
    if (onPath.has(dir) && existsSync(dir) && canWrite(dir))
      return { target: join(dir, 'corral'), privileged: false, onLoginPath: true };
  }
  return { target: '/usr/local/bin/corral', privileged: true, onLoginPath: true };
}

/**
 * Why the `corral` command must not point at this copy of the app, or null. An app opened from the dmg
 * or Downloads runs translocated (macOS copies it to a random read-only path under
 * /private/var/folders/…/AppTranslocation/ that disappears), and one outside Applications moves when the
 * user tidies up: the wrapper would name a path that is gone.
 */
export function appLocationProblem(exe: string, inApplicationsFolder: boolean): string | null {
  if (/\/AppTranslocation\//.test(exe))
    return 'Corral is running from a temporary copy macOS made of it (App Translocation): move Corral to Applications, open it from there, and install the command again';
  if (!inApplicationsFolder)
    return 'Corral is not in Applications: move it there first, so the command does not point at a copy that moves';
  return null;
}

/** Why `target` must not be replaced (a `corral` Corral did not put there), or null. */
export function existingCliProblem(target: string): string | null {
  if (!existsSync(target)) return null;
  let text = '';
  try {
    text = readFileSync(target, 'utf8');
  } catch {
    // Unreadable: not ours.
  }
  return text.includes(MARK) ? null : `${target} exists and is not Corral's wrapper: remove it first`;
}

/** Writes the wrapper where the user may write (no privileges): beside, then renamed over the target. */
export function installCliWrapper(target: string, appExecutable: string): void {
  const problem = existingCliProblem(target);
  if (problem) throw new Error(problem);
  const staged = join(dirname(target), `.corral-${process.pid}.tmp`);
  try {
    writeFileSync(staged, cliWrapperScript(appExecutable), { mode: 0o755 });
    chmodSync(staged, 0o755);
    renameSync(staged, target);
  } catch (err) {
    rmSync(staged, { force: true });
    throw err;
  }
}

/**
 * Installs the wrapper where only the administrator may write: stages it in a private directory of its
 * own under `tempDir`, has `runPrivileged` run the AppleScript that copies it to `target` (osascript,
 * which asks for the password), and removes the staged copy whether that succeeded, failed or was cancelled.
 */
export async function installCliPrivileged(
  target: string,
  appExecutable: string,
  tempDir: string,
  runPrivileged: (appleScript: string) => Promise<void>,
): Promise<void> {
  const stage = mkdtempSync(join(tempDir, 'corral-cli-'));
  try {
    const staged = join(stage, 'corral');
    writeFileSync(staged, cliWrapperScript(appExecutable), { mode: 0o755 });
    await runPrivileged(privilegedInstallScript(staged, target));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/**
 * The AppleScript that installs a staged wrapper into /usr/local/bin with the administrator's password
 * (`osascript -e <this>`; macOS shows its own password prompt naming the app).
 */
export function privilegedInstallScript(staged: string, target: string): string {
  const shell = `mkdir -p ${shQuote(dirname(target))} && cp ${shQuote(staged)} ${shQuote(target)} && chmod 755 ${shQuote(target)}`;
  return `do shell script "${shell.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}" with administrator privileges`;
}
