import { app } from 'electron';
import electronUpdater from 'electron-updater';
import type { Settings } from '../../../shared/model';
import { checkForUpdate, configureUpdater } from './app-updater';
import { updateUnsupported } from './update-support';
import { UpdateScheduler } from './update-scheduler';

/**
 * The packaged app's updates: checked at start and daily against the GitHub Releases in
 * electron-builder.yml's `publish`, unless the build cannot update itself (update-support.ts), the
 * `updates.enabled` setting is off, or a stop is running. Returns the scheduler to stop at quit.
 */
export function startUpdates(stopsRunning: () => number, settings: () => Settings): { stop(): void } {
  const log = (line: string): void => console.log(`corral updates: ${line}`);
  const unsupported = updateUnsupported(app.isPackaged, process.platform, process.env, process.execPath);
  const scheduler = new UpdateScheduler({
    gate: () => ({
      enabled: settings().updates?.enabled ?? true,
      unsupported,
      stopsRunning: stopsRunning(),
    }),
    // Only touched once a check may run: an unsupported build never loads the platform's updater.
    check: async () => {
      const { autoUpdater } = electronUpdater;
      configureUpdater(autoUpdater, log);
      const found = await checkForUpdate(autoUpdater);
      if (found) log(found.newer ? `downloading ${found.version}` : `up to date (latest ${found.version})`);
    },
    log,
  });
  scheduler.start();
  return scheduler;
}
