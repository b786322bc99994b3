// The running Corral's hook server alone, for the hook bench (bench/phases/hook-service.ts) and the
// burst test, so the CPU it spends per hook request is measured in a process that does nothing else:
// `node --import tsx bench/hook-server-child.ts <data dir>`; prints `ready <socket path>` once listening.
import { setLongLivedV8Flags } from '../main/cli/long-lived-heap';

// The V8 settings of the service it stands for (`corral serve`/`watch`), before the rest is loaded.
setLongLivedV8Flags(['serve']);

async function main(): Promise<void> {
  const { startServiceHooks } = await import('../main/hooks/service-hooks');
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: hook-server-child.ts <data dir>');
  const server = await startServiceHooks(dataDir, (step, err) => {
    process.stderr.write(`hook server: ${step}: ${String(err)}\n`);
  });
  if (!server?.socketPath)
    throw new Error('the hook server did not start (not Linux, or the socket could not be had)');
  // With http hooks (an endpoint on a port only root may bind), ready once that port is held too.
  while (server.port !== null && !server.portListening()) await new Promise((r) => setTimeout(r, 20));
  process.stdout.write(`ready ${server.socketPath}\n`);
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
}

void main().catch((err: unknown) => {
  process.stderr.write(`hook-server-child: ${String(err)}\n`);
  process.exit(1);
});
