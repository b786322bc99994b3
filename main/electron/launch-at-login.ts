// "Launch at login" for real: Electron's login items on macOS, an XDG autostart entry on Linux
// (Electron's setLoginItemSettings does nothing there).
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { app } from 'electron';
import { autostartDesktopEntry } from './autostart-entry';
import { loginItemView, type LoginItemView } from './login-item-view';

function autostartFile(): string {
  const configHome = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(configHome, 'autostart', 'corral.desktop');
}

/** The executable a login session should start: the AppImage itself when running from one. */
function launcherPath(): string {
  return process.env.APPIMAGE ?? process.execPath;
}

export function launchAtLoginView(): LoginItemView {
  if (process.platform === 'linux')
    return loginItemView({
      platform: 'linux',
      isPackaged: app.isPackaged,
      openAtLogin: existsSync(autostartFile()),
    });
  const settings = app.getLoginItemSettings() as { openAtLogin: boolean; status?: string };
  return loginItemView({
    platform: process.platform,
    isPackaged: app.isPackaged,
    openAtLogin: settings.openAtLogin,
    status: settings.status,
  });
}

/** Changes the login item; returns why it refused, or null. */
export function setLaunchAtLogin(enabled: boolean): string | null {
  const { refusal } = launchAtLoginView();
  if (refusal && enabled) return refusal;
  if (process.platform !== 'linux') {
    app.setLoginItemSettings({ openAtLogin: enabled });
    return null;
  }
  const file = autostartFile();
  if (!enabled) {
    rmSync(file, { force: true });
    return null;
  }
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, autostartDesktopEntry(launcherPath()));
  return null;
}
