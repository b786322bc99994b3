// A minimal STAND-IN for the few Electron objects main/electron/ipc.ts and security.ts use, so their
// wiring runs under Node: ipcMain.handle/removeHandler, app.on('web-contents-created'), and the default
// session's permission and header hooks. It records what the code registers, so a test can call it as
// Electron would. It is no Electron: the real wiring is also exercised by test/electron/electron-app.test.ts
// (skipped where Electron cannot start).
type Listener = (...args: unknown[]) => void;

export interface FakeWebContents {
  mainFrame: { url: string };
  sent: unknown[][];
  send: (...args: unknown[]) => void;
  listeners: Map<string, Listener[]>;
  on: (name: string, listener: Listener) => FakeWebContents;
  windowOpenHandler: ((details: unknown) => unknown) | null;
  setWindowOpenHandler: (handler: (details: unknown) => unknown) => void;
}

export function fakeWebContents(url: string): FakeWebContents {
  const contents: FakeWebContents = {
    mainFrame: { url },
    sent: [],
    send: (...args) => void contents.sent.push(args),
    listeners: new Map(),
    on: (name, listener) => {
      contents.listeners.set(name, [...(contents.listeners.get(name) ?? []), listener]);
      return contents;
    },
    windowOpenHandler: null,
    setWindowOpenHandler: (handler) => {
      contents.windowOpenHandler = handler;
    },
  };
  return contents;
}

export const electronStandIn = {
  handlers: new Map<string, (event: unknown, ...args: unknown[]) => unknown>(),
  appListeners: new Map<string, Listener[]>(),
  permissionRequestHandler: null as
    ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | null,
  permissionCheckHandler: null as ((...args: unknown[]) => boolean) | null,
  headersHandler: null as
    | ((details: { responseHeaders?: Record<string, string[]> }, callback: (r: unknown) => void) => void)
    | null,
  reset(): void {
    this.handlers.clear();
    this.appListeners.clear();
    this.permissionRequestHandler = null;
    this.permissionCheckHandler = null;
    this.headersHandler = null;
  },
};

/** The module object `vi.mock('electron', ...)` returns. */
export function electronModule() {
  const s = electronStandIn;
  return {
    ipcMain: {
      handle: (channel: string, handler: (event: unknown, ...args: unknown[]) => unknown) => {
        if (s.handlers.has(channel))
          throw new Error(`Attempted to register a second handler for '${channel}'`);
        s.handlers.set(channel, handler);
      },
      removeHandler: (channel: string) => void s.handlers.delete(channel),
    },
    app: {
      on: (name: string, listener: Listener) => {
        s.appListeners.set(name, [...(s.appListeners.get(name) ?? []), listener]);
      },
    },
    session: {
      defaultSession: {
        webRequest: {
          onHeadersReceived: (handler: typeof s.headersHandler) => {
            s.headersHandler = handler;
          },
        },
        setPermissionRequestHandler: (handler: typeof s.permissionRequestHandler) => {
          s.permissionRequestHandler = handler;
        },
        setPermissionCheckHandler: (handler: typeof s.permissionCheckHandler) => {
          s.permissionCheckHandler = handler;
        },
      },
    },
  };
}
