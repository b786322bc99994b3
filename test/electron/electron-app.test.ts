// End to end through the real desktop app: launched with playwright-core's Electron driver on the
// built output. Runs only where an Electron binary, a display and a build exist.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron, type ElectronApplication } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { CorralApi } from '../../shared/contract';
import { cleanEnv } from '../support/spawned-groups';

const root = resolve(__dirname, '../..');

/** The renderer's global, typed here because test files compile without the DOM library. */
interface RendererGlobal {
  corral: CorralApi;
  require?: unknown;
  process?: unknown;
  open(url: string): unknown;
}

function electronBinary(): string | null {
  const pathFile = join(root, 'node_modules/electron/path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(root, 'node_modules/electron/dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

const binary = electronBinary();
const display = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
const built =
  existsSync(join(root, 'out/main/index.js')) && existsSync(join(root, 'out/renderer/index.html'));
const skipReason = !binary
  ? 'no Electron binary (node_modules/electron/path.txt or its dist/ binary is missing; run node node_modules/electron/install.js)'
  : !display
    ? 'no display (DISPLAY and WAYLAND_DISPLAY are unset)'
    : !built
      ? 'the app is not built (run npm run build)'
      : null;

if (skipReason) console.log(`electron-app.test.ts: skipped, ${skipReason}`);

describe('the desktop app', () => {
  it.skipIf(skipReason !== null)(
    'starts hidden, shows a locked-down window with only the corral API, and answers through IPC',
    async () => {
      const home = mkdtempSync(join(tmpdir(), 'corral-e2e-'));
      let app: ElectronApplication | null = null;
      try {
        app = await _electron.launch({
          executablePath: binary!,
          args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), root],
          cwd: root,
          env: cleanEnv({
            HOME: home,
            XDG_CONFIG_HOME: join(home, 'config'),
            CORRAL_DATA_DIR: join(home, 'data'),
            ...(process.env.DISPLAY ? { DISPLAY: process.env.DISPLAY } : {}),
            ...(process.env.WAYLAND_DISPLAY ? { WAYLAND_DISPLAY: process.env.WAYLAND_DISPLAY } : {}),
          }),
        });
        const electronApp = app;
        await electronApp.evaluate(({ app: a }) => a.whenReady());
        expect(await electronApp.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(
          0,
        );

        // A second launch asks the running instance to show its window.
        await electronApp.evaluate(({ app: a }) => void a.emit('second-instance'));
        const page = await electronApp.firstWindow();
        await page.waitForLoadState('domcontentloaded');

        const prefs = await electronApp.evaluate(({ BrowserWindow }) => {
          // Electron's own, untyped accessor for the preferences the window really got.
          const contents = BrowserWindow.getAllWindows()[0]!.webContents as unknown as {
            getLastWebPreferences(): Record<string, unknown> | null;
          };
          const p = contents.getLastWebPreferences();
          return {
            contextIsolation: p?.contextIsolation,
            sandbox: p?.sandbox,
            nodeIntegration: p?.nodeIntegration,
          };
        });
        expect(prefs).toEqual({ contextIsolation: true, sandbox: true, nodeIntegration: false });

        const world = await page.evaluate(() => {
          const w = globalThis as unknown as RendererGlobal;
          return {
            api: Object.keys(w.corral).sort(),
            require: typeof w.require,
            process: typeof w.process,
            popup: w.open('https://example.com') === null,
          };
        });
        expect(world).toEqual({
          api: ['on', 'request'],
          require: 'undefined',
          process: 'undefined',
          popup: true,
        });

        const answers = await page.evaluate(async () => {
          const api = (globalThis as unknown as RendererGlobal).corral;
          const snapshot = await api.request('snapshot:get', undefined);
          const refused = await api.request('group:stop', { groupId: 4242 as unknown as string }).then(
            () => 'accepted',
            (err: Error) => err.message,
          );
          const unknownChannel = await api.request('process:kill' as 'snapshot:get', undefined).then(
            () => 'accepted',
            (err: Error) => err.message,
          );
          return { groups: Array.isArray(snapshot.groups), refused, unknownChannel };
        });
        expect(answers.groups).toBe(true);
        expect(answers.refused).toMatch(/not a raw PID or PGID/);
        expect(answers.unknownChannel).toMatch(/unknown request channel/);
      } finally {
        await app?.close();
        rmSync(home, { recursive: true, force: true });
      }
    },
  );
});
