// `corral metrics`: /metrics on its own small HTTP server, without the UI.
//
// Access rules:
// - Loopback by default. Without a token, a request must name a loopback Host for this port, so a web
//   page that rebinds a DNS name to 127.0.0.1 cannot read the metrics.
// - Any other address must be asked for, and then a bearer token is required (checked by the caller
//   that builds the handler); the token, not the Host, is what admits a scraper on another machine.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isIP } from 'node:net';
import { loopbackHosts } from '../common/loopback-hosts';
import type { MetricsHandler } from './metrics-endpoint';

export interface RunningMetricsServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

export async function startMetricsServer(options: {
  host: string;
  port: number;
  handler: MetricsHandler;
  /** The handler checks a token: any Host may reach it. */
  tokenRequired: boolean;
}): Promise<RunningMetricsServer> {
  let port = options.port;
  const shown = isIP(options.host) === 6 ? `[${options.host}]` : options.host;
  // The usual loopback names, and the one it was bound to (127.0.0.2 is loopback too).
  const allowedHost = (host: string): boolean =>
    loopbackHosts(port).includes(host) || host === `${shown.toLowerCase()}:${port}`;
  const http = createServer((req, res) => {
    if (!options.tokenRequired && !allowedHost((req.headers.host ?? '').toLowerCase())) {
      res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' });
      return res.end(`forbidden: Host '${req.headers.host ?? ''}' is not this server\n`);
    }
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      return res.end('not found: the metrics are at /metrics\n');
    }
    options.handler(req, res);
  });
  await new Promise<void>((resolveListen, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => {
      http.off('error', reject);
      resolveListen();
    });
  });
  port = (http.address() as AddressInfo).port;
  return {
    url: `http://${shown}:${port}/metrics`,
    port,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}
