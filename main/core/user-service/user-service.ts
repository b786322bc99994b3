import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { missingHookProgram } from '../hooks-setup/hook-program-check';
import {
  LAUNCHD_LABEL,
  PLIST_WRITTEN_BY,
  launchAgentLogPath,
  launchAgentPath,
  launchAgentPlist,
} from './launchd-plist';
import { SYSTEMD_UNIT, WRITTEN_BY, systemdUnitText, systemdUserDir, type ServiceSpec } from './systemd-unit';

/** Runs a service manager's command; returns its exit status and output (null status: not installed). */
export type ManagerRun = (cmd: string, args: string[]) => { status: number | null; output: string };

export const runManager: ManagerRun = (cmd, args) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 30_000 });
  return { status: r.error ? null : r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() };
};

export interface ServicePlace {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  /** The user id for launchd's gui/<uid> domain. */
  uid: number;
  run: ManagerRun;
  /** Waits between launchctl retries; blocking is fine in a one-shot command. */
  sleep?: (ms: number) => void;
}

const blockFor = (ms: number): void =>
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms) as unknown as void;

/** How long `service install` keeps retrying `launchctl bootstrap` while launchd still tears the old job down. */
export const BOOTSTRAP_RETRY_MS = 10_000;
const BOOTSTRAP_RETRY_STEP_MS = 250;

export interface ServiceReport {
  kind: 'systemd' | 'launchd';
  /** The unit or plist file. */
  path: string;
  installed: boolean;
  /** Enabled to start with the session (systemd), or loaded (launchd). */
  enabled: boolean;
  /** Running now, as the service manager says; null when no manager could be asked. */
  running: boolean | null;
  /** The command the service runs, from the file. */
  command: string | null;
  /** launchd only: how the job last ended, as `launchctl print` says (`last exit code = …`). */
  lastExit?: string;
  /** Set when that command no longer exists: `service install` rewrites it. */
  missingCommand?: string;
  /** What was done, or what to do (one line each). */
  notes: string[];
}

function kindOf(platform: NodeJS.Platform): 'systemd' | 'launchd' {
  if (platform === 'linux') return 'systemd';
  if (platform === 'darwin') return 'launchd';
  throw new Error(`corral service supports Linux (systemd) and macOS (launchd), not ${platform}`);
}

function fileOf(place: ServicePlace): string {
  return kindOf(place.platform) === 'systemd'
    ? join(systemdUserDir(place.env, place.home), SYSTEMD_UNIT)
    : launchAgentPath(place.home);
}

function marker(place: ServicePlace): string {
  return kindOf(place.platform) === 'systemd' ? WRITTEN_BY : PLIST_WRITTEN_BY;
}

/** systemctl --user for the user's manager: null when there is none to talk to (no session bus). */
function systemctl(place: ServicePlace, ...args: string[]): { status: number | null; output: string } {
  return place.run('systemctl', ['--user', ...args]);
}

function userManagerRuns(place: ServicePlace): boolean {
  return systemctl(place, 'show-environment').status === 0;
}

/**
 * The last line of what install writes: the SHA-256 of everything before it, so that uninstall tells a
 * file as written from one the user edited since (which it backs up before removing).
 */
const CHECKSUM = /\n(?:# |<!-- )corral-sha256: ([0-9a-f]{64})(?: -->)?\n$/;

function withChecksum(text: string, kind: 'systemd' | 'launchd'): string {
  const sum = createHash('sha256').update(text).digest('hex');
  return `${text}${kind === 'systemd' ? `# corral-sha256: ${sum}` : `<!-- corral-sha256: ${sum} -->`}\n`;
}

function editedSinceInstall(text: string): boolean {
  const m = CHECKSUM.exec(text);
  if (!m) return true;
  const body = text.slice(0, m.index + 1);
  return createHash('sha256').update(body).digest('hex') !== m[1];
}

/** The sh that runs a program path systemd refuses (systemd-unit.ts execArgv), left out of what is shown. */
const SHELL_EXEC = '/bin/sh -c "exec \\"$$0\\" \\"$$@\\"" ';

function commandOf(text: string, kind: 'systemd' | 'launchd'): string | null {
  if (kind === 'systemd') {
    const exec = /^ExecStart=(.*)$/m.exec(text)?.[1] ?? null;
    return exec?.startsWith(SHELL_EXEC) ? exec.slice(SHELL_EXEC.length) : exec;
  }
  const args = /<key>ProgramArguments<\/key>\s*<array>([\s\S]*?)<\/array>/.exec(text)?.[1];
  if (!args) return null;
  return [...args.matchAll(/<string>([^<]*)<\/string>/g)]
    .map((m) => m[1]!.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&'))
    .map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`))
    .join(' ');
}

export function userServiceStatus(place: ServicePlace): ServiceReport {
  const kind = kindOf(place.platform);
  const path = fileOf(place);
  const notes: string[] = [];
  if (!existsSync(path)) {
    return { kind, path, installed: false, enabled: false, running: null, command: null, notes };
  }
  const text = readFileSync(path, 'utf8');
  const command = commandOf(text, kind);
  // systemd's ExecStart uses double quotes; the check reads both quotings the same way.
  const missing = command ? missingHookProgram(command.replace(/ watch --json$/, ''), { PATH: '' }) : null;
  let enabled = false;
  let running: boolean | null = null;
  let lastExit: string | undefined;
  if (kind === 'systemd') {
    enabled = existsSync(join(dirname(path), 'default.target.wants', SYSTEMD_UNIT));
    if (userManagerRuns(place)) running = systemctl(place, 'is-active', SYSTEMD_UNIT).status === 0;
    else notes.push('no systemd user manager is running in this session: cannot tell whether it runs');
  } else {
    const printed = place.run('launchctl', ['print', `gui/${place.uid}/${LAUNCHD_LABEL}`]);
    enabled = printed.status === 0;
    running = printed.status === 0 ? /^\s*state = running$/m.test(printed.output) : false;
    lastExit = /^\s*last exit code = (.+)$/m.exec(printed.output)?.[1]?.trim();
    if (enabled && !running && lastExit && lastExit !== '0' && !/never exited/.test(lastExit))
      notes.push(
        `loaded but not running: it last exited with ${lastExit} (see ${launchAgentLogPath(place.home)})`,
      );
  }
  if (!text.includes(marker(place))) {
    notes.push(`${path} was not written by corral service install`);
  }
  return {
    kind,
    path,
    installed: true,
    enabled,
    running,
    command,
    ...(lastExit !== undefined ? { lastExit } : {}),
    ...(missing ? { missingCommand: missing } : {}),
    notes,
  };
}

/** Writes the unit or plist (replacing one install wrote before), enables it, and starts it where it can. */
export function installUserService(place: ServicePlace, spec: ServiceSpec): ServiceReport {
  const kind = kindOf(place.platform);
  const path = fileOf(place);
  const notes: string[] = [];
  if (existsSync(path) && !readFileSync(path, 'utf8').includes(marker(place))) {
    throw new Error(`${path} was not written by corral service install; it was left untouched`);
  }
  const text = withChecksum(
    kind === 'systemd' ? systemdUnitText(spec) : launchAgentPlist(spec, place.home),
    kind,
  );
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text, { mode: 0o644 });
  notes.push(`wrote ${path}`);
  if (kind === 'systemd') {
    // Enabling is a symlink in default.target.wants, which systemctl makes without a running manager.
    const enable = systemctl(place, '--no-reload', 'enable', SYSTEMD_UNIT);
    if (enable.status === null)
      notes.push('systemctl is not installed: the unit was written but not enabled');
    else if (enable.status !== 0) notes.push(`systemctl --user enable failed: ${enable.output}`);
    else notes.push(`enabled ${SYSTEMD_UNIT} (it starts with your session)`);
    if (userManagerRuns(place)) {
      systemctl(place, 'daemon-reload');
      const start = systemctl(place, 'restart', SYSTEMD_UNIT);
      notes.push(
        start.status === 0 ? `started ${SYSTEMD_UNIT}` : `systemctl --user restart failed: ${start.output}`,
      );
    } else {
      notes.push(
        `no systemd user manager is running in this session: it starts at your next login, or now with \`systemctl --user start ${SYSTEMD_UNIT}\``,
      );
    }
  } else {
    bootstrapAgain(place, path);
    notes.push(`loaded ${LAUNCHD_LABEL}`);
  }
  return { ...userServiceStatus(place), notes };
}

/**
 * Boots out a job loaded before, so the new plist is what runs, then bootstraps it. `bootout` returns
 * before launchd has finished with the old job, and a `bootstrap` meanwhile fails with error 5
 * (EIO, "Bootstrap failed: 5: Input/output error") for a few seconds: retried until it loads, and
 * checked with `launchctl print`. Throws when it never loads, so install does not report success.
 */
function bootstrapAgain(place: ServicePlace, path: string): void {
  const sleep = place.sleep ?? blockFor;
  place.run('launchctl', ['bootout', `gui/${place.uid}/${LAUNCHD_LABEL}`]);
  let boot = place.run('launchctl', ['bootstrap', `gui/${place.uid}`, path]);
  for (let waited = 0; boot.status !== 0 && waited < BOOTSTRAP_RETRY_MS; waited += BOOTSTRAP_RETRY_STEP_MS) {
    if (!/(?:^|\D)5: |Input\/output error/.test(boot.output)) break;
    sleep(BOOTSTRAP_RETRY_STEP_MS);
    boot = place.run('launchctl', ['bootstrap', `gui/${place.uid}`, path]);
  }
  if (boot.status !== 0)
    throw new Error(`launchctl bootstrap failed: ${boot.output}; ${path} is written but not loaded`);
  if (place.run('launchctl', ['print', `gui/${place.uid}/${LAUNCHD_LABEL}`]).status !== 0)
    throw new Error(`launchctl bootstrap said it loaded ${path}, but launchd does not know ${LAUNCHD_LABEL}`);
}

/** Removes the directory when empty (install's own mkdir -p), never when something else is in it. */
function removeIfEmpty(dir: string): void {
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // Gone already, or not ours to remove.
  }
}

function removeOrBackUp(path: string, backup: string | null): void {
  if (backup) renameSync(path, backup);
  else rmSync(path);
}

/** Stops and removes exactly what install wrote: the file, the enable link, and directories left empty. */
export function uninstallUserService(place: ServicePlace): ServiceReport {
  const kind = kindOf(place.platform);
  const path = fileOf(place);
  const notes: string[] = [];
  if (!existsSync(path)) {
    return { ...userServiceStatus(place), notes: [`${path} is not there; nothing to remove`] };
  }
  const text = readFileSync(path, 'utf8');
  if (!text.includes(marker(place))) {
    throw new Error(`${path} was not written by corral service install; it was left untouched`);
  }
  // Edited since install (or written by a Corral that kept no checksum): kept beside it, out of the
  // service manager's sight (neither a unit name nor a .plist).
  const backup = editedSinceInstall(text) ? `${path}.corral-backup-${Date.now()}` : null;
  if (kind === 'systemd') {
    if (userManagerRuns(place)) systemctl(place, 'stop', SYSTEMD_UNIT);
    systemctl(place, '--no-reload', 'disable', SYSTEMD_UNIT);
    rmSync(join(dirname(path), 'default.target.wants', SYSTEMD_UNIT), { force: true });
    removeOrBackUp(path, backup);
    if (userManagerRuns(place)) systemctl(place, 'daemon-reload');
    const user = dirname(path);
    removeIfEmpty(join(user, 'default.target.wants'));
    removeIfEmpty(user);
    removeIfEmpty(dirname(user));
  } else {
    place.run('launchctl', ['bootout', `gui/${place.uid}/${LAUNCHD_LABEL}`]);
    removeOrBackUp(path, backup);
  }
  notes.push(`removed ${path}`);
  if (backup) notes.push(`it was edited since install: your version is kept in ${backup}`);
  return { ...userServiceStatus(place), notes };
}
