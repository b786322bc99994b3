import { join } from 'node:path';
import { app } from 'electron';

/** Where the built pieces live, next to out/main/index.js; icons come from build/ or the app's resources. */
export function appPaths() {
  const iconsDir = app.isPackaged ? join(process.resourcesPath, 'icons') : join(app.getAppPath(), 'build');
  return {
    preload: join(__dirname, '../preload/index.js'),
    rendererFile: join(__dirname, '../renderer/index.html'),
    devServerUrl: process.env.ELECTRON_RENDERER_URL,
    trayIcon: join(iconsDir, process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png'),
  };
}
