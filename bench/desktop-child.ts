// Run by bench/phases/shipped-cost.ts, bundled to plain JavaScript and started with `node`: the desktop
// app's arrangement without Electron's own processes. The core runs in a worker thread from the built
// out/main/service-worker.js, as main/electron/index.ts starts it, and this thread takes its pushes as
// the tray and notifier do, with no window open. Prints "ready" once the worker answered.
import { startWorkerService } from '../main/core/worker/worker-service';

async function main(): Promise<void> {
  const [entry, dataDir] = process.argv.slice(2);
  if (!entry || !dataDir) throw new Error('usage: desktop-child <service-worker.js> <data dir>');
  const running = await startWorkerService(entry, { dataDir });
  let flagged = 0;
  const off = running.service.onSnapshot((snapshot) => {
    flagged = snapshot.groups.filter((g) => g.flags.length > 0).length;
  });
  process.stdout.write('ready\n');
  await new Promise<void>((done) => process.once('SIGTERM', done));
  off();
  await running.stop();
  process.stdout.write(`flagged ${flagged}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `desktop child failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
});
