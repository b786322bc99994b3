import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { IncidentStore } from '../../main/core/storage/incident-store';
import { FakeAgent } from '../support/fake-agent';
import { cleanEnv, trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { REPO_ROOT } from './run-fixture';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs';
import { forEachSqliteDriver } from './sqlite-drivers';

const CLI = fileURLToPath(new URL('../../main/cli/corral.ts', import.meta.url));
const tempDir = tempDirsRemovedAfterEach();

interface Watch {
  pid: number;
  stderr: () => string;
  stdout: () => string;
  exit: Promise<unknown>;
}

/** A real `corral watch` on `dataDir`, its own process (no launcher in between: its pid is the watch's). */
function startWatch(dataDir: string, home: string): Watch {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'watch'], {
    cwd: REPO_ROOT,
    env: cleanEnv({ HOME: home, CORRAL_DATA_DIR: dataDir, CORRAL_CONFIG: '/nonexistent' }),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  trackGroup(child.pid!);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return {
    pid: child.pid!,
    stderr: () => stderr,
    stdout: () => stdout,
    exit: new Promise((resolve) => child.on('exit', resolve)),
  };
}

forEachSqliteDriver('writer-takeover.test.ts', () => {
  describe('two corral watch processes on one data directory', () => {
    it('when the writer is SIGKILLed the reader takes its place, says so, and records the next leak', async () => {
      const dataDir = tempDir('corral-takeover-');
      const home = tempDir('corral-home-');
      const writer = startWatch(dataDir, home);
      await waitFor('the writer watching', () => writer.stdout().includes('corral watch —'), {
        timeoutMs: 30_000,
      });
      const reader = startWatch(dataDir, home);
      await waitFor('the reader saying it only reads', () => reader.stderr().includes('Read-only'), {
        timeoutMs: 30_000,
      });
      expect(reader.stderr()).toContain(`another Corral (pid ${writer.pid})`);
      await waitFor('the reader watching', () => reader.stdout().includes('corral watch —'), {
        timeoutMs: 30_000,
      });

      process.kill(writer.pid, 'SIGKILL');
      await writer.exit;

      // A leak after the writer died: an agent's tool call leaves a sleep behind.
      const agent = await FakeAgent.start();
      const call = await agent.toolCall('sleep 600 & echo left');
      await call.exited();
      const recorded = await waitFor(
        'the leak recorded in the data directory',
        () => {
          const store = IncidentStore.open(dataDir, { role: 'reader' });
          try {
            return store.list().find((i) => i.pgid === call.pid);
          } finally {
            store.close();
          }
        },
        { timeoutMs: 30_000, explain: () => `reader's stderr:\n${reader.stderr()}` },
      );
      expect(recorded.agent).toBe('claude-code');
      expect(reader.stderr()).toContain(
        `the Corral that recorded incidents in ${dataDir} (pid ${writer.pid}) is gone; this one records them now`,
      );
    });
  });
});
