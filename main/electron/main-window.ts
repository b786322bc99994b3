// The one window: created when first asked for, never at start, and rebuilt after it is closed.
import { BrowserWindow } from 'electron';
import { pathToFileURL } from 'node:url';
import type { RendererLocation } from './sender-check';

export interface MainWindowOptions {
  preloadPath: string;
  rendererFile: string;
  devServerUrl?: string;
  /** Told when the window becomes visible or goes away (the core pushes every group only while shown). */
  onVisibilityChange?: (visible: boolean) => void;
}

export class MainWindow {
  private window: BrowserWindow | null = null;
  readonly location: RendererLocation;

  constructor(private readonly options: MainWindowOptions) {
    this.location = { fileUrl: pathToFileURL(options.rendererFile).href, devServerUrl: options.devServerUrl };
  }

  get webContents(): Electron.WebContents | null {
    return this.window && !this.window.isDestroyed() ? this.window.webContents : null;
  }

  /** Shows the window; with a group id, the renderer opens that group (it reads `#group=<id>`). */
  show(groupId?: string): void {
    const hash = groupId ? `group=${encodeURIComponent(groupId)}` : '';
    if (!this.window || this.window.isDestroyed()) {
      this.window = this.create();
      void this.load(hash);
      this.window.once('ready-to-show', () => this.window?.show());
      return;
    }
    if (groupId) void this.load(hash);
    if (this.window.isMinimized()) this.window.restore();
    this.window.show();
    this.window.focus();
  }

  private load(hash: string): Promise<void> {
    const base = this.options.devServerUrl ?? this.location.fileUrl;
    const url = new URL(base);
    url.hash = hash;
    return this.window!.loadURL(url.href);
  }

  private create(): BrowserWindow {
    const window = this.newWindow();
    const notify = this.options.onVisibilityChange;
    if (notify) {
      window.on('show', () => notify(true));
      window.on('hide', () => notify(false));
      window.on('closed', () => notify(false));
    }
    return window;
  }

  private newWindow(): BrowserWindow {
    return new BrowserWindow({
      width: 1100,
      height: 720,
      minWidth: 720,
      minHeight: 480,
      show: false,
      title: 'Corral',
      autoHideMenuBar: true,
      webPreferences: {
        preload: this.options.preloadPath,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
        spellcheck: false,
        // Middle-click must not open anything either (Electron security checklist).
        disableBlinkFeatures: 'Auxclick',
      },
    });
  }
}
