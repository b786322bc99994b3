import type { AppUpdater } from 'electron-updater';

/**
 * How the app's updater behaves: it downloads a newer release from the GitHub Releases named by
 * electron-builder.yml's `publish` (app-update.yml in the package), never an older one, and installs
 * it when the app quits, so nothing restarts under the user (or under a stop).
 */
export function configureUpdater(updater: AppUpdater, log: (line: string) => void): void {
  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = true;
  updater.allowDowngrade = false;
  updater.logger = {
    info: (m?: unknown) => log(String(m)),
    warn: (m?: unknown) => log(`warning: ${String(m)}`),
    error: (m?: unknown) => log(`error: ${String(m)}`),
  };
}

/** One check: the version found, and whether it is newer than this one (being downloaded then). */
export async function checkForUpdate(
  updater: AppUpdater,
): Promise<{ version: string; newer: boolean } | null> {
  const result = await updater.checkForUpdates();
  if (!result) return null;
  return { version: result.updateInfo.version, newer: result.isUpdateAvailable };
}
