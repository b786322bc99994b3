// The tray icon: redrawn from each snapshot, and the place tray actions are carried out.
import { app, dialog, Menu, nativeImage, shell, Tray } from 'electron';
import type { Snapshot } from '../../shared/model';
import type { CorralService } from '../core/service';
import { installCommandLineTool } from './cli-install-action';
import { confirmAndStop } from './confirm-stop';
import { launchAtLoginView, setLaunchAtLogin } from './launch-at-login';
import { MenuUpdateGate } from './menu-update-gate';
import type { MainWindow } from './main-window';
import { toMenuTemplate } from './tray-menu';
import { buildTrayMenuModel, msUntilMenuReadsOtherwise, type TrayAction } from './tray-menu-model';

/** Twenty-five leftovers' ages each turn a minute at their own moment: the menu lags them by this much at most. */
const AGES_REDRAWN_AT_MOST_EVERY_MS = 5000;

export class TrayController {
  private readonly tray: Tray;
  private lastSnapshot: Snapshot;
  private drawn = '';
  private configProblems = 0;
  private notificationsBlocked = false;
  private readonly gate = new MenuUpdateGate<Menu>((menu) => this.tray.setContextMenu(menu));
  /** Redraws from the last snapshot when an age or countdown in the menu would read otherwise. */
  private ticking: NodeJS.Timeout | null = null;

  constructor(
    iconPath: string,
    private readonly service: CorralService,
    private readonly window: MainWindow,
  ) {
    const icon = nativeImage.createFromPath(iconPath);
    // A template image follows the macOS menu bar's light/dark appearance.
    if (process.platform === 'darwin') icon.setTemplateImage(true);
    this.tray = new Tray(icon);
    this.lastSnapshot = service.snapshot();
    this.update(this.lastSnapshot);
    this.refreshConfigProblems();
  }

  /** The config file's problems, asked again whenever the window is opened (Settings may fix them). */
  private refreshConfigProblems(): void {
    this.service.configProblems().then(
      (found) => {
        if (found.errors.length === this.configProblems) return;
        this.configProblems = found.errors.length;
        this.update(this.lastSnapshot);
      },
      () => undefined,
    );
  }

  /** Said once in the menu: a notification failed to show. */
  setNotificationsBlocked(): void {
    if (this.notificationsBlocked) return;
    this.notificationsBlocked = true;
    this.update(this.lastSnapshot);
  }

  update(snapshot: Snapshot): void {
    this.lastSnapshot = snapshot;
    const login = launchAtLoginView();
    const state = {
      now: Date.now(),
      notificationsPausedUntil: this.service.settings().notifications.pausedUntil,
      launchAtLogin: login.checked,
      launchAtLoginNote: login.note,
      configProblems: this.configProblems,
      offerCliInstall: process.platform === 'darwin' && app.isPackaged,
      notificationsBlocked: this.notificationsBlocked,
    };
    const model = buildTrayMenuModel(snapshot, state);
    if (this.ticking) clearTimeout(this.ticking);
    const wait = msUntilMenuReadsOtherwise(snapshot, state);
    this.ticking =
      wait === null
        ? null
        : setTimeout(() => this.update(this.lastSnapshot), Math.max(wait, AGES_REDRAWN_AT_MOST_EVERY_MS));
    const serialized = JSON.stringify(model);
    if (serialized === this.drawn) return;
    this.drawn = serialized;
    if (process.platform === 'darwin') this.tray.setTitle(model.title);
    this.tray.setToolTip(model.tooltip);
    const menu = Menu.buildFromTemplate(toMenuTemplate(model.items, (a) => void this.run(a)));
    // Replacing an open menu closes it (macOS): hold the newest until the open one closes.
    menu.on('menu-will-show', () => this.gate.opened());
    menu.on('menu-will-close', () => this.gate.closed());
    this.gate.offer(menu);
  }

  /** The menu-bar icon exists (the smoke test's first check). */
  created(): boolean {
    return !this.tray.isDestroyed();
  }

  destroy(): void {
    if (this.ticking) clearTimeout(this.ticking);
    this.ticking = null;
    this.gate.dispose();
    this.tray.destroy();
  }

  private async run(action: TrayAction): Promise<void> {
    switch (action.kind) {
      case 'open-window':
        this.refreshConfigProblems();
        return this.window.show();
      case 'open-group':
        return this.window.show(action.groupId);
      case 'stop-group':
        return confirmAndStop(this.service, this.window, action);
      case 'keep-group':
      case 'unkeep-group': {
        const asked =
          action.kind === 'keep-group'
            ? this.service.keepGroup({ groupId: action.groupId })
            : this.service.unkeepGroup(action.groupId);
        await asked.catch((err: unknown) => dialog.showErrorBox('Keep running', String(err)));
        return;
      }
      case 'pause-notifications':
      case 'resume-notifications': {
        const { enabled } = this.service.settings().notifications;
        const pausedUntil = action.kind === 'pause-notifications' ? Date.now() + action.forMs : null;
        this.service.updateSettings({ notifications: { enabled, pausedUntil } });
        return this.update(this.lastSnapshot);
      }
      case 'set-launch-at-login': {
        const refusal = setLaunchAtLogin(action.enabled);
        if (refusal) dialog.showErrorBox('Launch at login', refusal);
        return this.update(this.lastSnapshot);
      }
      case 'install-cli':
        return installCommandLineTool();
      case 'open-notification-settings':
        // macOS 13+: System Settings › Notifications; Linux desktops have no one place to send the user.
        if (process.platform === 'darwin')
          await shell.openExternal('x-apple.systempreferences:com.apple.Notifications-Settings.extension');
        return;
      case 'quit':
        return app.quit();
    }
  }
}
