// `corral serve`: the renderer in a browser, over loopback.
//
// Access rules:
// - Every request (static files and the WebSocket upgrade) must carry a loopback Host for this port
//   (127.0.0.1, localhost or [::1]) and, when it has an Origin, the server's own origin. Else 403.
// - The WebSocket at /api also needs the token from the printed URL (`?token=...`). Static files do
//   not: they are the same public bundle that ships in the app, the page's own asset requests carry
//   no query string, and without the token the page can read nothing.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { CorralService } from '../core/service';
import { contentSecurityPolicy } from '../transport/content-security-policy';
import { MAX_PAYLOAD_BYTES } from '../transport/limits';
import { refusalReason } from './request-guard';
import { serveStatic } from './static-files';
import { WsApi } from './ws-api';

export interface ServeOptions {
  /** 0 picks a free port. */
  port: number;
  host?: '127.0.0.1';
  /** The built renderer, usually out/renderer. */
  staticDir: string;
  /** Serves GET /metrics (`corral serve --metrics`), behind the same Host and Origin checks. */
  metrics?: (req: IncomingMessage, res: ServerResponse) => void;
}

export interface RunningServer {
  url: string;
  token: string;
  close(): Promise<void>;
}

/** Room for the message envelope around a maximal payload; larger frames close the connection (1009). */
const MAX_FRAME_BYTES = MAX_PAYLOAD_BYTES + 4096;

function securityHeaders(host: string): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy({ connectSources: [`ws://${host}`] }),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}

function refuseUpgrade(socket: Duplex, status: string, reason: string): void {
  const body = `${reason}\n`;
  socket.end(
    `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

export async function startServer(service: CorralService, options: ServeOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  if (host !== '127.0.0.1') throw new Error(`corral serve listens on 127.0.0.1 only, not ${String(host)}`);
  const token = randomBytes(24).toString('base64url');
  let port = options.port;

  const guard = (req: IncomingMessage, requireToken: boolean) =>
    refusalReason(
      { host: req.headers.host, origin: req.headers.origin, url: req.url ?? '/' },
      { port, token, requireToken },
    );

  const http = createServer((req, res) => {
    const refused = guard(req, false);
    if (refused) {
      res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' });
      return res.end(`forbidden: ${refused}\n`);
    }
    if (options.metrics && new URL(req.url ?? '/', 'http://localhost').pathname === '/metrics')
      return options.metrics(req, res);
    void serveStatic(req, res, options.staticDir, securityHeaders(req.headers.host!.toLowerCase()));
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const api = new WsApi(wss, service);

  http.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/api') {
      return refuseUpgrade(socket, '404 Not Found', 'not found: the WebSocket API is at /api');
    }
    const refused = guard(req, true);
    if (refused) return refuseUpgrade(socket, '403 Forbidden', `forbidden: ${refused}`);
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  await new Promise<void>((resolveListen, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => {
      http.off('error', reject);
      resolveListen();
    });
  });
  port = (http.address() as AddressInfo).port;

  return {
    url: `http://${host}:${port}/?token=${token}`,
    token,
    close: async () => {
      api.stop();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}
