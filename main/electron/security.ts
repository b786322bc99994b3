// Hardening that applies to every webContents and session, whatever window is open.
import { app, session } from 'electron';
import { contentSecurityPolicy } from '../transport/content-security-policy';

export function hardenApp(devServerUrl: string | undefined): void {
  const csp = contentSecurityPolicy({
    // Vite's dev server pushes hot updates over a WebSocket on its own origin.
    connectSources: devServerUrl ? [new URL(devServerUrl).origin.replace(/^http/, 'ws')] : [],
  });

  // Header CSP for http(s) (the dev server); the built renderer's index.html carries the same in a meta tag.
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);

  app.on('web-contents-created', (_event, contents) => {
    // The renderer never leaves its page; main moves it between groups with loadURL, which is not a navigation event.
    contents.on('will-navigate', (event) => event.preventDefault());
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
}
