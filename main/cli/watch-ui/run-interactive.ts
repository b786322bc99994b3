import type * as InkModule from 'ink';
import type { Settings } from '../../../shared/model';
import type { LoadedConfig } from '../../core/facade/service';
import { startCliService } from '../cli-service';
import { watchFeed } from './watch-feed';

/** `import()` as Node does it, out of reach of the CommonJS transforms of tsx and the bundler. */
const importNative = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<unknown>;

const envNumber = (value: string | undefined): number | null => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
};

// The alternate screen, as htop and less use: the shell's scrollback is left as it was on quit.
const ENTER_ALTERNATE_SCREEN = '\x1b[?1049h';
const LEAVE_ALTERNATE_SCREEN = '\x1b[?1049l';

/** Runs the interactive watch (watch-app.ts) until `q`, Ctrl-C or SIGTERM; exit code 0. */
export async function runInteractiveWatch(
  settings: Settings,
  all: boolean,
  config?: LoadedConfig,
): Promise<number> {
  // Ink and React are loaded only here: ps, kill and the hooks never pay for them. Ink is an ES
  // module with top-level await (yoga-layout): it is imported natively, never turned into a require.
  const ink = (await importNative('ink')) as typeof InkModule;
  const [{ createElement }, { createWatchApp }] = await Promise.all([import('react'), import('./watch-app')]);
  const WatchApp = createWatchApp(ink);
  const { render } = ink;
  const running = startCliService('watch', settings, config);
  const feed = watchFeed(running.service);
  process.stdout.write(ENTER_ALTERNATE_SCREEN);
  const app = render(
    createElement(WatchApp, {
      service: running.service,
      feed,
      graceMs: settings.teardown.graceMs,
      all,
      columns: envNumber(process.env.COLUMNS),
      rows: envNumber(process.env.LINES),
    }),
    { patchConsole: false },
  );
  const onSignal = (): void => app.unmount();
  process.once('SIGTERM', onSignal);
  try {
    await app.waitUntilExit();
  } finally {
    feed.close();
    process.off('SIGTERM', onSignal);
    process.stdout.write(LEAVE_ALTERNATE_SCREEN);
    // Ink read the keyboard from stdin: let go of it, or an open terminal keeps the process alive.
    if (process.stdin.isTTY) process.stdin.setRawMode(false);
    process.stdin.pause();
    process.stdin.unref();
    await running.stop();
  }
  return 0;
}
