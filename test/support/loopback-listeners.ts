import type { Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';

/**
 * Starts `server` on loopback (`port`, or one the kernel gives) and resolves to its port and a close that
 * also ends the connections it accepted, for a test's cleanups: a hung listener's clients never end theirs.
 */
export async function listenOnLoopback(
  server: Server | HttpServer,
  port = 0,
): Promise<{ port: number; close: () => Promise<void> }> {
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => sockets.add(s));
  const close = (): Promise<void> =>
    new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });
  return { port: (server.address() as { port: number }).port, close };
}

/** A loopback port nothing listens on: one the kernel just gave out and took back. */
export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
