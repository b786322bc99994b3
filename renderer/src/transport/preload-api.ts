import type { CorralApi } from '../../../shared/contract';

/** The API the Electron preload put on `window.corral`, if this page runs inside Corral's window. */
export function preloadApi(win: Window = window): CorralApi | null {
  return win.corral ?? null;
}
