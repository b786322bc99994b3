import { posix } from 'node:path';

export const SYSTEMD_UNIT = 'corral-watch.service';
/** The first line of every unit `corral service install` writes: uninstall removes only such a file. */
export const WRITTEN_BY = '# Written by `corral service install`; `corral service uninstall` removes it.';

/** ~/.config/systemd/user (or $XDG_CONFIG_HOME/systemd/user): where a user's own units live. */
export function systemdUserDir(env: Readonly<Record<string, string | undefined>>, home: string): string {
  const xdg = env.XDG_CONFIG_HOME?.trim();
  const config = xdg && posix.isAbsolute(xdg) ? xdg : posix.join(home, '.config');
  return posix.join(config, 'systemd', 'user');
}

/**
 * One word of a systemd command line (systemd.service(5) "Command lines"): double-quoted when it
 * holds anything but plain characters, `%` doubled (specifiers). `$` is doubled in the arguments,
 * where systemd substitutes variables, but not in the program's path or an Environment= value, which
 * it takes literally (systemd-analyze verify looks for `$$` in a program path as written).
 */
export function systemdWord(word: string, literalDollar = false): string {
  const escaped = literalDollar
    ? word.replaceAll('%', '%%')
    : word.replaceAll('%', '%%').replaceAll('$', '$$$$');
  return /^[\w@+=:,./-]+$/.test(escaped) ? escaped : `"${escaped.replace(/(["\\])/g, '\\$1')}"`;
}

/** An Environment= assignment, quoted as a whole (systemd.exec(5)). */
function environmentLine(name: string, value: string): string {
  return `Environment=${systemdWord(`${name}=${value}`, true)}`;
}

export interface ServiceSpec {
  /** What runs `corral` (see corral-command.ts), without the `watch` arguments. */
  argv: string[];
  /** PATH for the service (see servicePath). */
  path: string;
  /** CORRAL_DATA_DIR when the installing shell set one; else the default the app uses too. */
  dataDir?: string;
  /** CORRAL_CONFIG when the installing shell set one; else the default config file. */
  configPath?: string;
}

/** C0 and C1 controls and DEL: a newline would end the line it is in and start a setting of its own. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Refuses a spec no service file can carry safely: a control character in the command, PATH, the data
 * directory or the config path (a newline in CORRAL_DATA_DIR would add an `ExecStartPre=` of its own).
 */
export function checkServiceSpec(spec: ServiceSpec): void {
  const values: Array<[string, string | undefined]> = [
    ...spec.argv.map((a): [string, string] => ['the command that runs corral', a]),
    ['PATH', spec.path],
    ['CORRAL_DATA_DIR', spec.dataDir],
    ['CORRAL_CONFIG', spec.configPath],
  ];
  for (const [what, value] of values) {
    const c = value === undefined ? null : CONTROL.exec(value)?.[0];
    if (c)
      throw new Error(
        `${what} (${JSON.stringify(value)}) holds a control character (\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}), ` +
          'which a service file cannot carry; nothing was written',
      );
  }
}

/**
 * systemd runs no program whose path holds a quote or a backslash ("Executable name contains special
 * characters", whatever the quoting): such a path is run by sh as its `$0`, an argument, which systemd
 * takes as quoted.
 */
const EXEC_BY_SHELL = ['/bin/sh', '-c', 'exec "$0" "$@"'];

export function execArgv(argv: readonly string[]): string[] {
  return /["'\\]/.test(argv[0] ?? '') ? [...EXEC_BY_SHELL, ...argv] : [...argv];
}

/** The `corral watch` user unit: restarted when it fails, started with the user's session. */
export function systemdUnitText(spec: ServiceSpec): string {
  checkServiceSpec(spec);
  const exec = [...execArgv(spec.argv), 'watch', '--json'].map((w, i) => systemdWord(w, i === 0)).join(' ');
  return [
    WRITTEN_BY,
    '[Unit]',
    'Description=Corral: watches for the processes AI coding agents leave behind',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${exec}`,
    environmentLine('PATH', spec.path),
    ...(spec.dataDir ? [environmentLine('CORRAL_DATA_DIR', spec.dataDir)] : []),
    ...(spec.configPath ? [environmentLine('CORRAL_CONFIG', spec.configPath)] : []),
    // `watch --json` prints one event per line: the journal keeps them (journalctl --user -u corral-watch).
    'Restart=on-failure',
    'RestartSec=5s',
    // It reads /proc and signals only the user's own groups, when a policy or the user asks.
    'NoNewPrivileges=yes',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}
