// Wires the core to the desktop: tray, notifications, one window, IPC. Decisions live in the modules.
import { app, dialog, powerMonitor } from 'electron';
import type { Snapshot } from '../../shared/model';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { resolveDataDir } from '../core/storage/data-dir';
import { startWorkerService } from '../core/worker/worker-service';
import { confirmAndStop } from './confirm-stop';
import { registerIpc } from './ipc';
import { MainWindow } from './main-window';
import { checkNativeModules, describeNativeFailures, nativeModulesFor } from './native-check';
import { Notifier } from './notifier';
import { appPaths } from './paths';
import { hardenApp } from './security';
import { TrayController } from './tray-controller';
import { startUpdates } from './updates/start-updates';
import { trackingStops } from './updates/stop-tracker';

/** A start-up failure whose message is written for the user (shown as is, without a stack). */
class StartupError extends Error {}

async function start(): Promise<void> {
  if (process.platform === 'darwin') {
    // A menu-bar app: no Dock icon, no app menu (LSUIElement in the packaged Info.plist does the same).
    app.setActivationPolicy('accessory');
    app.dock?.hide();
  }
  const paths = appPaths();
  hardenApp(paths.devServerUrl);

  const missing = checkNativeModules(nativeModulesFor(process.platform));
  if (missing.length > 0) throw new StartupError(describeNativeFailures(missing, process.arch));

  // The core runs in a worker thread: table scans never block this thread (tray, IPC, notifications).
  const worker = await startWorkerService(join(__dirname, 'service-worker.js'), {
    // The CLI's data directory (CORRAL_DATA_DIR, else the platform's): the app and a `corral service`
    // share one incident store, whose lock lets one of them write. Electron's userData differed on
    // Linux (~/.config/Corral), which made both write.
    dataDir: resolveDataDir(process.env, process.platform, homedir()),
  });
  const { stop, setSnapshotDetail, rebaseline } = worker;
  // Every stop the app starts is counted: the updater never checks while one runs.
  const stops = trackingStops(worker.service);
  const service = stops.service;
  const updates = startUpdates(stops.running, () => service.settings());
  const window = new MainWindow({
    preloadPath: paths.preload,
    rendererFile: paths.rendererFile,
    devServerUrl: paths.devServerUrl,
    onVisibilityChange: (visible) => setSnapshotDetail(visible ? 'all' : 'agents'),
  });
  const disposeIpc = registerIpc(service, window);
  const tray = new TrayController(paths.trayIcon, service, window);
  const notifier = new Notifier(
    service,
    (groupId) => window.show(groupId),
    (request) => confirmAndStop(service, window, request),
  );
  const offEvents = service.onEvent((event) => notifier.considerEvent(event));
  const offSnapshot = service.onSnapshot((snapshot: Snapshot) => {
    tray.update(snapshot);
    notifier.consider(snapshot);
  });
  // A sleep is neither a runaway nor an exit storm: CPU readings and hot streaks restart on both edges.
  // The monitor finds its own stalls (App Nap, a starved worker: monitor/stall.ts) by the monotonic
  // clock, which stands still while the machine sleeps, so a sleep is said here.
  powerMonitor.on('suspend', rebaseline);
  powerMonitor.on('resume', rebaseline);

  app.on('second-instance', () => window.show());
  app.on('activate', () => window.show());

  let stopped = false;
  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    stopped = true;
    updates.stop();
    offSnapshot();
    offEvents();
    disposeIpc();
    tray.destroy();
    // stop() is bounded (worker-service.ts): Quit never hangs on a dead or stuck worker.
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
      const detail =
        err instanceof StartupError
          ? err.message
          : err instanceof Error
            ? (err.stack ?? err.message)
            : String(err);
      dialog.showErrorBox('Corral could not start', detail);
      app.exit(1);
    });
}
