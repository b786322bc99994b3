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
