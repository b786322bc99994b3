import type { Settings } from '../../shared/model';
import { loadConfig, type LoadedConfig } from '../core/facade/service';
import { createCorralService, type RunningService } from '../core/facade/service';
import { ownHookCommand } from './own-hook-command';
import { userDataDir } from '../core/facade/service';
import { startServiceHooks } from '../hooks/service-hooks';
import { releaseStartUpPagesLater } from '../core/facade/service';

/**
 * The running core for a long-lived CLI command; problems are reported on stderr, named for it. The
 * config the command line already read is passed in, so the file is read and validated once.
 */
export function startCliService(
  command: string,
  settings: Settings,
  config: LoadedConfig = loadConfig(),
): RunningService {
  const running = createCorralService({
    config: { ...config, settings },
    hooks: { command: ownHookCommand() },
    onError: (step, err) => process.stderr.write(`corral ${command}: ${step}: ${String(err)}\n`),
  });
  if (running.store.problem) process.stderr.write(`corral ${command}: storage: ${running.store.problem}\n`);
  // Said once when it changes (a disk filling up or freeing), never once per write.
  running.store.onProblemChange((problem) =>
    process.stderr.write(`corral ${command}: storage: ${problem ?? 'incidents are saved to disk again'}\n`),
  );
  running.store.onTakeOver((notice) => process.stderr.write(`corral ${command}: storage: ${notice}\n`));
  // Agents' hooks are answered here while the service runs (main/hooks/hook-server.ts).
  const hooks = startServiceHooks(
    userDataDir(),
    (step, err) => process.stderr.write(`corral ${command}: ${step}: ${String(err)}\n`),
    running.hookWiring,
  );
  // Once start-up has settled, its pages of Node's binary are let go (core/release-start-up-pages.ts).
  const cancelRelease = releaseStartUpPagesLater();
  const stop = running.stop.bind(running);
  running.stop = async () => {
    cancelRelease();
    await (await hooks)?.close();
    await stop();
  };
  return running;
}
