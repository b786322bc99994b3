// The XDG autostart file that makes a Linux desktop session start Corral at login.

/**
 * Exec= quoting per the Desktop Entry spec: inside double quotes escape " ` $ \ with a backslash,
 * then the string-value rule doubles every backslash again, and % becomes %% (field codes).
 */
export function desktopExecArgument(path: string): string {
  const quoted = `"${path.replace(/(["`$\\])/g, '\\$1')}"`;
  return quoted.replace(/\\/g, '\\\\').replace(/%/g, '%%');
}

export function autostartDesktopEntry(executable: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Corral',
    'Comment=Watchdog for processes AI coding agents leave behind',
    `Exec=${desktopExecArgument(executable)}`,
    'X-GNOME-Autostart-enabled=true',
    'NoDisplay=true',
    '',
  ].join('\n');
}
