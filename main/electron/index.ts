// Wires the core to the desktop: tray, notifications, one window, IPC. Decisions live in the modules.
import { app, dialog, powerMonitor } from 'electron';
import type { Snapshot } from '../../shared/model';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { resolveDataDir } from '../core/storage/data-dir';
import { startWorkerService } from '../core/worker/worker-service';
import { disableAppNap } from './app-nap';
import { spawnSync } from 'node:child_process';
import { cliArguments, cliWrapperScript } from './cli-install';
import { confirmAndStop } from './confirm-stop';
import { registerIpc } from './ipc';
import { MainWindow } from './main-window';
import { checkNativeModules, describeNativeFailures, nativeModulesFor } from './native-check';
import { Notifier } from './notifier';
import { loadObjcRuntime } from './objc-runtime';
import { appPaths } from './paths';
import { mergePaths, readLoginShellPath } from './login-shell-path';
import { hardenApp } from './security';
import { firstSnapshot, isSmokeTest, loadedNativeModules, smokeVerdict, snapshotSize } from './smoke-test';
import { TrayController } from './tray-controller';
import { startUpdates } from './updates/start-updates';
import { trackingStops } from './updates/stop-tracker';

/** App Nap off for the app's life (app-nap.ts); a failure costs accuracy, not the app. */
function keepAwakeForPolls(): boolean {
  try {
    disableAppNap(loadObjcRuntime());
    return true;
  } catch (err) {
    console.warn('corral: could not opt out of App Nap; polls may be throttled while idle', err);
    return false;
  }
}

/**
 * Started from Finder or at login, the app lacks the shell's PATH: the login shell's is taken, once,
 * before the worker starts (it copies this environment), so hooks set-up finds `corral` there.
 */
async function adoptLoginShellPath(): Promise<void> {
  const found = await readLoginShellPath(process.env);
  if ('path' in found) process.env.PATH = mergePaths(found.path, process.env.PATH);
  else console.warn(`corral: keeping the app's PATH: ${found.problem}`);
}

/**
 * Exits once what was written to stdout and stderr is out: on macOS a pipe is written asynchronously
 * (Node's process.stdout), and app.exit does not wait for it.
 */
async function exitAfterOutput(code: number): Promise<void> {
  await Promise.all(
    [process.stdout, process.stderr].map(
      (stream) => new Promise<void>((done) => stream.write('', () => done())),
    ),
  );
  app.exit(code);
}

const smokeTest = isSmokeTest(process.argv);
const startedAt = Date.now();

/** Shows the window at start (CI's screenshots; `open -a Corral --args --open-window`). */
const OPEN_WINDOW_FLAG = '--open-window';

/** A start-up failure whose message is written for the user (shown as is, without a stack). */
class StartupError extends Error {}

async function start(): Promise<void> {
  let appNapOptOut: boolean | null = null;
  if (process.platform === 'darwin') {
    // A menu-bar app: no Dock icon, no app menu (LSUIElement in the packaged Info.plist does the same).
    app.setActivationPolicy('accessory');
    app.dock?.hide();
    appNapOptOut = keepAwakeForPolls();
    await adoptLoginShellPath();
  }
  const paths = appPaths();
  hardenApp(paths.devServerUrl);

  const nativeModules = nativeModulesFor(process.platform);
  const missing = checkNativeModules(nativeModules);
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
    () => tray.setNotificationsBlocked(),
  );
  const offEvents = service.onEvent((event) => notifier.considerEvent(event));
  const offSnapshot = service.onSnapshot((snapshot: Snapshot) => {
    tray.update(snapshot);
    notifier.consider(snapshot);
  });
  // A sleep is neither a runaway nor an exit storm: CPU readings and hot streaks restart on both edges.
  // The monitor finds its own stalls (App Nap, a starved worker: monitor/schedule/stall.ts) by the monotonic
  // clock, which stands still while the machine sleeps, so a sleep is said here.
  powerMonitor.on('suspend', rebaseline);
  powerMonitor.on('resume', rebaseline);

  if (smokeTest) {
    // The full table, not the tray's agents only: the first snapshot proves the sampler works here.
    setSnapshotDetail('all');
    const snapshot = await firstSnapshot((listener) => service.onSnapshot(listener));
    const size = snapshotSize(snapshot);
    const verdict = smokeVerdict({
      trayCreated: tray.created(),
      snapshotSize: size.processes,
      snapshotGroups: size.groups,
      nativeModulesExpected: nativeModules,
      nativeModulesLoaded: loadedNativeModules(),
      nativeModulesFailed: [],
      appNapOptOut,
      elapsedMs: Date.now() - startedAt,
    });
    process.stdout.write(`${verdict.line}\n`);
    tray.destroy();
    await stop();
    await exitAfterOutput(verdict.exitCode);
    return;
  }
  if (process.argv.includes(OPEN_WINDOW_FLAG)) window.show();

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

/** In smoke-test mode a failure is the JSON line and a non-zero exit, never a dialog. */
function failSmokeTest(err: unknown): void {
  const verdict = smokeVerdict({
    trayCreated: false,
    snapshotSize: 0,
    snapshotGroups: 0,
    nativeModulesExpected: [],
    nativeModulesLoaded: [],
    nativeModulesFailed: [],
    appNapOptOut: null,
    elapsedMs: Date.now() - startedAt,
    error: err instanceof Error ? err.message : String(err),
  });
  process.stdout.write(`${verdict.line}\n`);
  void exitAfterOutput(verdict.exitCode);
}

/**
 * `Corral --cli <args>` (what wrappers of earlier releases run; it works only in a GUI session): runs the
 * same wrapper the "Install command-line tool…" item writes, so the CLI runs on Node with its own script
 * as argv[1], as everything that names Corral's own command line (hooks, the service) expects.
 */
function runCli(args: string[]): void {
  const result = spawnSync('/bin/sh', ['-c', cliWrapperScript(app.getPath('exe')), 'corral', ...args], {
    stdio: 'inherit',
  });
  app.exit(result.status ?? 1);
}

const cliArgs = cliArguments(process.argv);
if (cliArgs !== null) {
  runCli(cliArgs);
} else if (!app.requestSingleInstanceLock()) {
  if (smokeTest) failSmokeTest(new Error('another Corral is running'));
  else app.quit();
} else {
  // The tray keeps running with no window open.
  app.on('window-all-closed', () => {});
  app
    .whenReady()
    .then(start)
    .catch((err: unknown) => {
      console.error('corral: failed to start', err);
      if (smokeTest) return failSmokeTest(err);
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
