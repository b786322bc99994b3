// What the "Launch at login" item shows, as a pure function of what the platform reports. On macOS 13
// and later a login item the user has not approved yet is registered but will not start: the menu says
// so instead of showing a tick. A development run (the bare Electron binary) is never registered: it
// would start Electron's default app at login, not Corral.

export interface LoginItemFacts {
  platform: NodeJS.Platform;
  /** app.isPackaged: false when running the development Electron binary. */
  isPackaged: boolean;
  /** app.getLoginItemSettings().openAtLogin, or the autostart file's presence on Linux. */
  openAtLogin: boolean;
  /** app.getLoginItemSettings().status on macOS 13+: not-registered, enabled, requires-approval, not-found. */
  status?: string;
  /** Linux runs from an AppImage or an installed package; process.execPath otherwise is Electron's. */
  isAppImage?: boolean;
}

export interface LoginItemView {
  checked: boolean;
  /** Shown after the label, e.g. "awaiting approval in System Settings"; null when there is nothing to say. */
  note: string | null;
  /** Why it cannot be changed from here, or null when it can. */
  refusal: string | null;
}

export function loginItemView(f: LoginItemFacts): LoginItemView {
  if (!f.isPackaged) {
    return {
      checked: false,
      note: 'packaged app only',
      refusal: 'A development run cannot launch at login: it would register the Electron binary, not Corral.',
    };
  }
  if (f.platform === 'darwin' && f.status === 'requires-approval') {
    return {
      checked: false,
      note: 'awaiting approval in System Settings › Login Items',
      refusal: null,
    };
  }
  if (f.platform === 'darwin' && f.status === 'not-found') {
    return { checked: false, note: 'not found by macOS (move Corral to Applications)', refusal: null };
  }
  if (f.platform === 'darwin' && f.status !== undefined)
    return { checked: f.status === 'enabled', note: null, refusal: null };
  return { checked: f.openAtLogin, note: null, refusal: null };
}
