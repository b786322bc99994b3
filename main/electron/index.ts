// Wires the core to the desktop: tray, notifications, one window, IPC. Decisions live in the modules.
import { app } from 'electron';
import type { Snapshot } from '../../shared/model';
import { join } from 'node:path';
import { startWorkerService } from '../core/worker/worker-service';
import { registerIpc } from './ipc';
import { MainWindow } from './main-window';
import { Notifier } from './notifier';
import { appPaths } from './paths';
import { hardenApp } from './security';
import { TrayController } from './tray-controller';

async function start(): Promise<void> {
  if (process.platform === 'darwin') {
    // A menu-bar app: no Dock icon, no app menu (LSUIElement in the packaged Info.plist does the same).
    app.setActivationPolicy('accessory');
    app.dock?.hide();
  }
  const paths = appPaths();
  hardenApp(paths.devServerUrl);

  // The core runs in a worker thread: table scans never block this thread (tray, IPC, notifications).
  const { service, stop, setSnapshotDetail } = await startWorkerService(
    join(__dirname, 'service-worker.js'),
    {
      dataDir: app.getPath('userData'),
    },
  );
  const window = new MainWindow({
    preloadPath: paths.preload,
    rendererFile: paths.rendererFile,
    devServerUrl: paths.devServerUrl,
    onVisibilityChange: (visible) => setSnapshotDetail(visible ? 'all' : 'agents'),
  });
  const disposeIpc = registerIpc(service, window);
  const tray = new TrayController(paths.trayIcon, service, window);
  const notifier = new Notifier(service, (groupId) => window.show(groupId));
  const offSnapshot = service.onSnapshot((snapshot: Snapshot) => {
    tray.update(snapshot);
    notifier.consider(snapshot);
  });

  app.on('second-instance', () => window.show());
  app.on('activate', () => window.show());

  let stopped = false;
  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    stopped = true;
    offSnapshot();
    disposeIpc();
    tray.destroy();
    void stop().finally(() => app.quit());
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // The tray keeps running with no window open.
  app.on('window-all-closed', () => {});
  app
    .whenReady()
    .then(start)
    .catch((err: unknown) => {
      console.error('corral: failed to start', err);
      app.exit(1);
    });
}
