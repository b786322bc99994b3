import type { CorralApi } from '../../shared/contract';

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent when the page is served by `corral serve`. */
    corral?: CorralApi;
  }
}

declare module '@vitejs/plugin-react/preamble';
