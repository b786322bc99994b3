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
}

/** The `corral watch` user unit: restarted when it fails, started with the user's session. */
export function systemdUnitText(spec: ServiceSpec): string {
  const exec = [...spec.argv, 'watch', '--json'].map((w, i) => systemdWord(w, i === 0)).join(' ');
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
