// The tray icon: redrawn from each snapshot, and the place tray actions are carried out.
import { app, dialog, Menu, nativeImage, Tray } from 'electron';
import type { Snapshot } from '../../shared/model';
import type { CorralService } from '../core/service';
import { isLaunchAtLogin, setLaunchAtLogin } from './launch-at-login';
import type { MainWindow } from './main-window';
import { toMenuTemplate } from './tray-menu';
import { buildTrayMenuModel, type TrayAction } from './tray-menu-model';

export class TrayController {
  private readonly tray: Tray;
  private lastSnapshot: Snapshot;
  private drawn = '';

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
  }

  update(snapshot: Snapshot): void {
    this.lastSnapshot = snapshot;
    const model = buildTrayMenuModel(snapshot, {
      now: Date.now(),
      notificationsPausedUntil: this.service.settings().notifications.pausedUntil,
      launchAtLogin: isLaunchAtLogin(),
    });
    const serialized = JSON.stringify(model);
    if (serialized === this.drawn) return;
    this.drawn = serialized;
    if (process.platform === 'darwin') this.tray.setTitle(model.title);
    this.tray.setToolTip(model.tooltip);
    this.tray.setContextMenu(Menu.buildFromTemplate(toMenuTemplate(model.items, (a) => void this.run(a))));
  }

  destroy(): void {
    this.tray.destroy();
  }

  private async run(action: TrayAction): Promise<void> {
    switch (action.kind) {
      case 'open-window':
        return this.window.show();
      case 'open-group':
        return this.window.show(action.groupId);
      case 'stop-group':
        return this.stopGroup(action.groupId, action.orphansOnly, action.description);
      case 'pause-notifications':
      case 'resume-notifications': {
        const { enabled } = this.service.settings().notifications;
        const pausedUntil = action.kind === 'pause-notifications' ? action.until : null;
        this.service.updateSettings({ notifications: { enabled, pausedUntil } });
        return this.update(this.lastSnapshot);
      }
      case 'set-launch-at-login':
        setLaunchAtLogin(action.enabled);
        return this.update(this.lastSnapshot);
      case 'quit':
        return app.quit();
    }
  }

  private async stopGroup(groupId: string, orphansOnly: boolean, description: string): Promise<void> {
    const { response } = await dialog.showMessageBox({
      type: 'warning',
      buttons: ['Stop', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
      message: orphansOnly ? 'Stop the leftover processes in this group?' : 'Stop this process group?',
      detail: `${description}\n\nCorral sends SIGTERM, then SIGKILL to what is still running after the grace period.`,
    });
    if (response !== 0) return;
    try {
      const result = await this.service.stopGroup({ groupId, orphansOnly });
      if (result.refused) dialog.showErrorBox('Corral did not stop the group', result.refused);
      else if (!result.clean) this.window.show(groupId);
    } catch (err) {
      dialog.showErrorBox(
        'Corral could not stop the group',
        err instanceof Error ? err.message : String(err),
      );
    }
  }
}
