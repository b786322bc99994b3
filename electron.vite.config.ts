import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'main/electron/index.ts'),
          corral: resolve(__dirname, 'main/cli/corral.ts'),
          'service-worker': resolve(__dirname, 'main/worker-host/service-worker.ts'),
          'corral-hook': resolve(__dirname, 'main/hooks/hook-main.ts'),
        },
        // Node keeps each loaded file's source as a string for as long as it runs (a long-lived
        // `corral watch` carries all its chunks): without doc comments, and in ASCII, so that one
        // '—' in a chunk does not make V8 store the whole file two bytes a character.
        output: { charset: 'ascii', comments: { legal: true, annotation: true, jsdoc: false } },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'preload/index.ts') } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
    plugins: [react()],
  },
});
