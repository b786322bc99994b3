import { randomBytes, randomInt } from 'node:crypto';
import { join } from 'node:path';
import { httpHookPortUsable, privilegedHookPort } from './http-hooks-port';
import { ensureOwnDataDir, readOwnFile, writeOwnFileAtomically } from '../storage/own-data-dir';

/**
 * Where a running Corral answers Claude Code's http hooks (command hooks ask the Unix socket,
 * hook-socket-path.ts): a loopback port and a per-user token, kept in
 * `<data dir>/hooks/endpoint` (one line, `<port> <token>`; written 0600 in the user's own 0700 data
 * directory, so only the user reads it). The port is chosen once and kept, because an agent's http
 * hook names it in its settings; the token never goes on a command line.
 */
export interface HookEndpoint {
  port: number;
  token: string;
}

/** Below Linux's ephemeral range (32768–60999), so an outgoing connection never holds it when the service starts. */
const PORT_MIN = 20000;
const PORT_MAX = 32767;

export function hookEndpointPath(dataDir: string): string {
  return join(dataDir, 'hooks', 'endpoint');
}

/** Pure: the endpoint in the file's text, or null when it is not one. */
export function parseHookEndpoint(text: string): HookEndpoint | null {
  const m = /^(\d{1,5}) ([0-9a-f]{64})\n?$/.exec(text);
  if (!m) return null;
  const port = Number(m[1]);
  return port >= 1 && port <= 65535 ? { port, token: m[2]! } : null;
}

export function readHookEndpoint(dataDir: string): HookEndpoint | null {
  ensureOwnDataDir(dataDir, 'hooks');
  const text = readOwnFile(hookEndpointPath(dataDir));
  return text === null ? null : parseHookEndpoint(text);
}

/**
 * The endpoint in the file, without creating anything (no data directory, no folder): what a dry run
 * and `hooks status` read. Null when there is none.
 */
export function peekHookEndpoint(dataDir: string): HookEndpoint | null {
  const text = readOwnFile(hookEndpointPath(dataDir));
  return text === null ? null : parseHookEndpoint(text);
}

/** A fresh endpoint (a random port and a 256-bit token), not written anywhere. */
export function newHookEndpoint(): HookEndpoint {
  return { port: randomInt(PORT_MIN, PORT_MAX + 1), token: randomBytes(32).toString('hex') };
}

/** The endpoint, created (a random port and a 256-bit token) when there is none yet. */
export function ensureHookEndpoint(dataDir: string): HookEndpoint {
  const existing = readHookEndpoint(dataDir);
  if (existing) return existing;
  const endpoint = newHookEndpoint();
  writeOwnFileAtomically(hookEndpointPath(dataDir), `${endpoint.port} ${endpoint.token}\n`);
  return endpoint;
}

/**
 * The endpoint for Claude Code's http hooks (root only, http-hooks-port.ts): the existing one when its
 * port is one no other user may bind, else a fresh one on such a port, written in place of the old.
 */
export function ensureHttpHookEndpoint(dataDir: string): HookEndpoint {
  const existing = readHookEndpoint(dataDir);
  if (existing && httpHookPortUsable(existing.port)) return existing;
  const endpoint = { port: privilegedHookPort(), token: randomBytes(32).toString('hex') };
  writeOwnFileAtomically(hookEndpointPath(dataDir), `${endpoint.port} ${endpoint.token}\n`);
  return endpoint;
}

/** The header an http hook carries the token in. */
export const HOOK_TOKEN_HEADER = 'x-corral-token';

export function hookUrl(port: number, agent: string, event: string): string {
  return `http://127.0.0.1:${port}/hook/${agent}/${event}`;
}
