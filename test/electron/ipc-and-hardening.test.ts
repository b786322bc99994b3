import { afterEach, describe, expect, it, vi } from 'vitest';
import { hardenApp } from '../../main/electron/security';
import { registerIpc } from '../../main/electron/ipc';
import type { MainWindow } from '../../main/electron/main-window';
import { IPC_PUSH, IPC_REQUEST } from '../../shared/ipc-channels';
import { FakeCorralService, makeGroup } from '../transport/fake-corral-service';
import { electronStandIn, fakeWebContents, type FakeWebContents } from './electron-stand-in';

// Electron itself cannot start here: its objects are a documented stand-in (see electron-stand-in.ts).
vi.mock('electron', async () => (await import('./electron-stand-in')).electronModule());

const FILE_URL = 'file:///opt/Corral/resources/app.asar/out/renderer/index.html';

afterEach(() => {
  electronStandIn.reset();
});

function setup() {
  const service = new FakeCorralService();
  const own = fakeWebContents(FILE_URL);
  const window = { webContents: own, location: { fileUrl: FILE_URL } } as unknown as MainWindow;
  const unregister = registerIpc(service, window);
  const handler = electronStandIn.handlers.get(IPC_REQUEST);
  if (!handler) throw new Error('registerIpc registered no request handler');
  const request = (sender: FakeWebContents, senderFrame: { url: string } | null, channel: string) =>
    handler({ sender, senderFrame }, channel, undefined);
  return { service, own, unregister, request };
}

describe('Electron IPC wiring (ipc.ts) against a stand-in of ipcMain', () => {
  it("answers requests from the window's own webContents and main frame", async () => {
    const { service, own, request } = setup();
    expect(await request(own, own.mainFrame, 'snapshot:get')).toMatchObject({ ok: true });
    expect(service.calls.map((c) => c.method)).toEqual(['snapshot']);
  });

  // Each case is wrong in one way only: another window's own main frame, our window's subframe, a gone frame.
  const cases: [string, (own: FakeWebContents) => FakeWebContents, (sender: FakeWebContents) => unknown][] = [
    [
      'another webContents (its own main frame)',
      () => fakeWebContents(FILE_URL),
      (sender) => sender.mainFrame,
    ],
    ['a subframe of the window', (own) => own, () => ({ url: FILE_URL })],
    ['a frame that is gone', (own) => own, () => null],
  ];
  it.each(cases)(
    'refuses a request from %s, and never reaches the service',
    async (_name, senderOf, frameOf) => {
      const { service, own, request } = setup();
      const sender = senderOf(own);
      const result = await request(sender, frameOf(sender) as { url: string } | null, 'snapshot:get');
      expect(result).toEqual({ ok: false, error: 'request refused: not from the Corral window' });
      expect(service.calls).toEqual([]);
    },
  );

  it('refuses the main frame once it shows another page', async () => {
    const { service, own, request } = setup();
    own.mainFrame.url = 'https://evil.example/';
    expect(await request(own, own.mainFrame, 'snapshot:get')).toMatchObject({ ok: false });
    expect(service.calls).toEqual([]);
  });

  it('pushes snapshots and events to its window only, and unregisters everything', () => {
    const { service, own, unregister } = setup();
    service.emitSnapshot({ seq: 2, sampledAt: 1, groups: [] });
    expect(own.sent).toEqual([[IPC_PUSH, 'snapshot', { seq: 2, sampledAt: 1, groups: [] }]]);
    unregister();
    expect(electronStandIn.handlers.has(IPC_REQUEST)).toBe(false);
    expect(service.listenerCount()).toBe(0);
  });

  it('pushes nothing while nothing changed, and answers snapshot:get with the snapshot the deltas chain on', async () => {
    const { service, own, request } = setup();
    const group = makeGroup();
    service.emitSnapshot({ seq: 2, sampledAt: 1, groups: [group] });
    service.emitSnapshot({ seq: 3, sampledAt: 2, groups: [structuredClone(group)] });
    expect(own.sent.map(([, channel]) => channel)).toEqual(['snapshot']);
    expect(await request(own, own.mainFrame, 'snapshot:get')).toEqual({
      ok: true,
      payload: { seq: 2, sampledAt: 2, groups: [group] },
    });
    service.emitSnapshot({ seq: 4, sampledAt: 3, groups: [] });
    expect(own.sent[1]).toEqual([
      IPC_PUSH,
      'snapshot:delta',
      { seq: 4, baseSeq: 2, sampledAt: 3, groups: [], removed: [group.id] },
    ]);
  });
});

describe('window hardening (security.ts) against a stand-in of app and session', () => {
  it('denies every permission request and check', () => {
    hardenApp(undefined);
    const granted: boolean[] = [];
    electronStandIn.permissionRequestHandler!({}, 'media', (g) => granted.push(g));
    electronStandIn.permissionRequestHandler!({}, 'notifications', (g) => granted.push(g));
    expect(granted).toEqual([false, false]);
    expect(electronStandIn.permissionCheckHandler!({}, 'clipboard-read', 'file://')).toBe(false);
  });

  it('stops navigation and webviews in every new webContents, and denies window opening', () => {
    hardenApp(undefined);
    const created = electronStandIn.appListeners.get('web-contents-created') ?? [];
    expect(created).toHaveLength(1);
    const contents = fakeWebContents(FILE_URL);
    created[0]!({}, contents);
    for (const name of ['will-navigate', 'will-attach-webview']) {
      const event = { defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) };
      const listeners = contents.listeners.get(name) ?? [];
      expect(listeners, name).toHaveLength(1);
      listeners[0]!(event, 'https://evil.example/');
      expect(event.defaultPrevented, name).toBe(true);
    }
    expect(contents.windowOpenHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
  });

  it('adds the content security policy to every response, allowing the dev server socket only in development', () => {
    const policyFor = (devServerUrl: string | undefined): string => {
      electronStandIn.reset();
      hardenApp(devServerUrl);
      let headers: Record<string, string[]> = {};
      electronStandIn.headersHandler!({ responseHeaders: { 'X-Other': ['1'] } }, (r) => {
        headers = (r as { responseHeaders: Record<string, string[]> }).responseHeaders;
      });
      expect(headers['X-Other']).toEqual(['1']);
      return headers['Content-Security-Policy']![0]!;
    };
    expect(policyFor(undefined)).not.toContain('ws://');
    expect(policyFor('http://localhost:5173')).toContain('ws://localhost:5173');
  });
});
