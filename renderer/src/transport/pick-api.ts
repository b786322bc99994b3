import type { CorralApi } from '../../../shared/contract';
import { preloadApi } from './preload-api';
import { apiSocketUrl, tokenFromLocation } from './serve-url';
import { createWebSocketApi, type WebSocketApi } from './websocket-api';

export type PickedApi =
  { kind: 'preload'; api: CorralApi } | { kind: 'websocket'; api: WebSocketApi } | { kind: 'missing-token' };

/** Inside Electron the preload's `window.corral`; in a browser, the serve WebSocket. */
export function pickApi(win: Window = window): PickedApi {
  const fromPreload = preloadApi(win);
  if (fromPreload) return { kind: 'preload', api: fromPreload };
  const token = tokenFromLocation(win.location);
  if (!token) return { kind: 'missing-token' };
  const probeServer = () =>
    win.fetch(new URL('/', win.location.href).href, { method: 'HEAD', cache: 'no-store' }).then(
      (response) => response.ok,
      () => false,
    );
  return {
    kind: 'websocket',
    api: createWebSocketApi({ url: apiSocketUrl(win.location, token), probeServer }),
  };
}
