import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import { bearerMatches } from './bearer-token';

export type MetricsHandler = (req: IncomingMessage, res: ServerResponse) => void;

function refuse(res: ServerResponse, status: number, reason: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(`${reason}\n`);
}

/**
 * GET /metrics in Prometheus's text format. With a token, a request must carry
 * `Authorization: Bearer <token>` (Prometheus's `authorization` scrape setting sends exactly that).
 */
export function metricsHandler(options: {
  registry: Registry;
  /** Brings the metrics up to date just before they are read. */
  refresh: () => void;
  token: string | null;
}): MetricsHandler {
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return refuse(res, 405, 'method not allowed: use GET', { Allow: 'GET, HEAD' });
    if (options.token !== null && !bearerMatches(req.headers.authorization, options.token)) {
      const reason = req.headers.authorization
        ? 'unauthorized: wrong bearer token'
        : 'unauthorized: send Authorization: Bearer <token>';
      return refuse(res, 401, reason, { 'WWW-Authenticate': 'Bearer realm="corral"' });
    }
    options.refresh();
    options.registry.metrics().then(
      (body) => {
        res.writeHead(200, { 'Content-Type': options.registry.contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (err: unknown) => refuse(res, 500, `metrics could not be collected: ${String(err)}`),
    );
  };
}
