// "Launch at login" for real: Electron's login items on macOS, an XDG autostart entry on Linux
// (Electron's setLoginItemSettings does nothing there).
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { app } from 'electron';
import { autostartDesktopEntry } from './autostart-entry';

function autostartFile(): string {
  const configHome = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(configHome, 'autostart', 'corral.desktop');
}

/** The executable a login session should start: the AppImage itself when running from one. */
function launcherPath(): string {
  return process.env.APPIMAGE ?? process.execPath;
}

export function isLaunchAtLogin(): boolean {
  if (process.platform === 'linux') return existsSync(autostartFile());
  return app.getLoginItemSettings().openAtLogin;
}

export function setLaunchAtLogin(enabled: boolean): void {
  if (process.platform !== 'linux') {
    app.setLoginItemSettings({ openAtLogin: enabled });
    return;
  }
  const file = autostartFile();
  if (!enabled) return rmSync(file, { force: true });
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, autostartDesktopEntry(launcherPath()));
}
