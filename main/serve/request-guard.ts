// Who may talk to `corral serve`. The server listens on loopback only, but any web page the user
// opens can still aim a request at 127.0.0.1: the Host check stops DNS rebinding, the Origin check
// stops cross-site pages, and the token stops everything else that has no way to read the URL.
import { timingSafeEqual } from 'node:crypto';
import { loopbackHosts } from '../common/loopback-hosts';

export interface GuardedRequest {
  host: string | undefined;
  origin: string | undefined;
  /** Path and query as received, e.g. `/api?token=...`. */
  url: string;
}

export interface GuardOptions {
  port: number;
  token: string;
  requireToken: boolean;
}

export function tokenMatches(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Returns why the request is refused, or null when it may proceed. */
export function refusalReason(
  request: GuardedRequest,
  { port, token, requireToken }: GuardOptions,
): string | null {
  const host = request.host?.toLowerCase();
  if (!host || !loopbackHosts(port).includes(host)) {
    return `Host '${request.host ?? ''}' is not this server; use http://127.0.0.1:${port}/`;
  }
  // Browsers send Origin on WebSocket upgrades and cross-origin requests; other clients may omit it.
  if (request.origin !== undefined && request.origin.toLowerCase() !== `http://${host}`) {
    return `Origin '${request.origin}' is not allowed; only pages served by this server may connect`;
  }
  if (requireToken) {
    const given = new URL(request.url, `http://${host}`).searchParams.get('token');
    if (!tokenMatches(given, token)) {
      return given === null
        ? 'missing token: open the URL that `corral serve` printed (it ends in ?token=...)'
        : 'wrong token: open the URL that `corral serve` printed (a restart makes a new token)';
    }
  }
  return null;
}
