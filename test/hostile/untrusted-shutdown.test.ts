// SIGTERM ends Corral within its shutdown deadline even while it is stuck reading a FIFO an agent's
// session file was swapped for (the writer held open, so the read would block for ever).
import { closeSync, constants, openSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { SHUTDOWN_DEADLINE_MS } from '../../main/cli/shutdown';
import { startServe } from '../support/serve-process';
import { waitFor } from '../support/wait-for';
import {
  agentWith,
  cleanUpUntrusted,
  FIFO_SESSION_FILE,
  leak,
  serveSnapshot,
  startWatch,
} from './untrusted-corral';

/** Opens the FIFO's write end once a reader has it open, and keeps it open: that reader's read() then blocks. */
function holdWriterWhenRead(fifo: string): () => boolean {
  let fd: number | null = null;
  return () => {
    if (fd !== null) return true;
    try {
      fd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
      const held = fd;
      afterRelease.push(() => closeSync(held));
      return true;
    } catch {
      return false; // ENXIO: nobody reads it
    }
  };
}
const afterRelease: (() => void)[] = [];
afterEach(() => {
  for (const release of afterRelease.splice(0)) release();
});

afterEach(cleanUpUntrusted);

describe('SIGTERM ends Corral within its shutdown deadline, a FIFO planted in its way', () => {
  it('watch', async () => {
    const { agent, places } = await agentWith(FIFO_SESSION_FILE);
    const fifo = join(places.configDir, 'sessions', `${agent.pid}.json`);
    const pgid = await leak(agent);
    const watch = startWatch(places.root);
    const wedgedOrPast = holdWriterWhenRead(fifo);
    // Either the leak is reported (Corral got past the FIFO) or Corral is reading the FIFO (and stays stuck
    // there, the writer held open): either way it is then told to stop.
    await waitFor(
      'watch past the FIFO, or reading it',
      () => watch.events.some((e) => e.pgid === pgid) || wedgedOrPast(),
      { timeoutMs: 20_000 },
    );
    process.kill(watch.child.pid!, 'SIGTERM');
    const exit = await waitFor('watch to exit after SIGTERM', () => exitOf(watch.child), {
      timeoutMs: SHUTDOWN_DEADLINE_MS,
    });
    expect(exit).toEqual({ code: 0, signal: null });
  });

  it('serve', async () => {
    const { agent, places } = await agentWith(FIFO_SESSION_FILE);
    const fifo = join(places.configDir, 'sessions', `${agent.pid}.json`);
    await leak(agent);
    const wedgedOrPast = holdWriterWhenRead(fifo);
    const serve = await startServe({ pollIntervalMs: 200 });
    let answered = false;
    void serveSnapshot(serve).then(
      () => (answered = true),
      () => {},
    );
    await waitFor('serve past the FIFO, or reading it', () => answered || wedgedOrPast(), {
      timeoutMs: 20_000,
    });
    let exit: { code: number | null } | undefined;
    void serve.stop().then((code) => (exit = { code })); // SIGTERM to serve's own pid
    await waitFor('serve to exit after SIGTERM', () => exit, { timeoutMs: SHUTDOWN_DEADLINE_MS });
    expect(exit).toEqual({ code: 0 });
  });
});

function exitOf(child: ChildProcess): { code: number | null; signal: NodeJS.Signals | null } | undefined {
  return child.exitCode !== null || child.signalCode !== null
    ? { code: child.exitCode, signal: child.signalCode }
    : undefined;
}
