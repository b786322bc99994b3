import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startWorkerService } from '../../main/core/worker/worker-service';

// Quit waits for stop(): it must settle whether the worker thread is alive, dead, or unresponsive.
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/worker/${name}`, import.meta.url));

describe('stopping the core worker', () => {
  it('resolves when the worker already died, and calls made after its death fail at once', async () => {
    const running = await startWorkerService(fixture('dies-after-ready.mjs'));
    await expect(running.service.incidents()).rejects.toThrow(/worker (exited|has exited)/);
    await expect(running.service.incidents()).rejects.toThrow(/has exited/);
    await expect(running.stop()).resolves.toBeUndefined();
  });

  it('terminates a worker that never answers stop, within the grace it was given', async () => {
    const running = await startWorkerService(fixture('ignores-stop.mjs'));
    await expect(running.stop(50)).resolves.toBeUndefined();
    // The thread is gone: a call now fails instead of waiting for an answer that cannot come.
    await expect(running.service.incidents()).rejects.toThrow(/has exited/);
  });
});
