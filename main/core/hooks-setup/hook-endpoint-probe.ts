import { lstatSync } from 'node:fs';
import { request, type RequestOptions } from 'node:http';
import { dirname } from 'node:path';
import { readOwnFile } from '../storage/own-data-dir';
import { HOOK_TOKEN_HEADER, hookEndpointPath, parseHookEndpoint } from './hook-endpoint';
import { hookSocketPath } from './hook-socket-path';
import { fetchRefusesPort } from './http-hooks-port';
import { tcpPortOwners } from './tcp-port-owners';
import type { HookEndpointState, HttpHooksProbe } from '../../../shared/hook-endpoint';

export type { HookEndpointState };

export interface HookEndpointProbe {
  /** Who answers the command hooks on the Unix socket (see HookEndpointState). */
  state: HookEndpointState;
  /** The endpoint file (the http hooks' port and token). */
  path: string;
  /** The Unix socket the command hooks ask. */
  socket: string;
  /** The port the endpoint file names, when it names one. */
  port?: number;
  detail?: string;
  /** Who answers on the http hooks' port, when http hooks are installed. */
  http?: HttpHooksProbe;
}

/** How long the probe waits for an answer: the hook client's own deadline. */
export const PROBE_DEADLINE_MS = 1_000;

type Answer = { state: HookEndpointState; detail?: string };

/** The answer of whatever listens there to a stats request; never rejects. */
function ask(where: RequestOptions, deadlineMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request({ ...where, method: 'GET', path: '/hook/stats', timeout: deadlineMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', () => resolve({ state: 'not-corral', detail: 'the answer broke off' }));
      res.on('end', () => {
        const corral = res.headers['x-corral-hook'] !== undefined;
        if (res.statusCode === 403 && corral) return resolve({ state: 'token-refused' });
        let stats: unknown = null;
        try {
          stats = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          // Not Corral's JSON.
        }
        const isStats = typeof (stats as { answered?: unknown } | null)?.answered === 'number';
        if (res.statusCode === 200 && corral && isStats) return resolve({ state: 'answering' });
        resolve({ state: 'not-corral', detail: `HTTP ${res.statusCode ?? '?'}` });
      });
    });
    req.on('timeout', () => {
      req.destroy();
      resolve({ state: 'not-answering' });
    });
    // After a timeout the destroyed request errs too; the probe has resolved by then.
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') resolve({ state: 'not-listening' });
      else resolve({ state: 'not-corral', detail: err.code ?? err.message });
    });
    req.end();
  });
}

/**
 * The hook socket, asked only when the hooks folder is the user's own and closed to others and the
 * socket is the user's: what the client itself checks before it sends anything.
 */
async function probeSocket(socket: string, deadlineMs: number): Promise<Answer> {
  const uid = process.geteuid?.();
  let folder;
  let st;
  try {
    folder = lstatSync(dirname(socket));
    st = lstatSync(socket);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'not-listening' };
    return { state: 'unreadable', detail: (err as Error).message };
  }
  if (!folder.isDirectory() || folder.uid !== uid || (folder.mode & 0o077) !== 0) {
    return {
      state: 'not-yours',
      detail: `${dirname(socket)} is not a folder of yours closed to others (0700)`,
    };
  }
  if (!st.isSocket() || st.uid !== uid) {
    return { state: 'not-yours', detail: `${socket} is not a socket of yours` };
  }
  return ask({ socketPath: socket }, deadlineMs);
}

/**
 * The http hooks' port, asked with the token only when its listener is the user's own (its uid in
 * /proc/net/tcp): the token is never sent to another user's listener, nor where that cannot be told.
 */
async function probeHttpPort(port: number, token: string, deadlineMs: number): Promise<HttpHooksProbe> {
  const owners = tcpPortOwners(port);
  if (owners === null) {
    return {
      state: 'not-corral',
      port,
      detail: 'who listens cannot be told here (no /proc/net/tcp), so the token is not sent',
    };
  }
  if (owners.length === 0) return { state: 'not-listening', port };
  const other = owners.find((uid) => uid !== process.geteuid?.());
  if (other !== undefined) return { state: 'other-user', port, uid: other };
  const answer = await ask(
    { host: '127.0.0.1', port, headers: { [HOOK_TOKEN_HEADER]: token, connection: 'close' } },
    deadlineMs,
  );
  return { ...answer, port };
}

/**
 * Who answers the hooks, as `corral hooks status` reports it: the Unix socket (the command hooks), and
 * when http hooks are installed (`httpPort`, the port they post to), the endpoint file's port. Creates nothing.
 */
export async function probeHookEndpoint(
  dataDir: string,
  { deadlineMs = PROBE_DEADLINE_MS, http = false }: { deadlineMs?: number; http?: boolean } = {},
): Promise<HookEndpointProbe> {
  const path = hookEndpointPath(dataDir);
  const socket = hookSocketPath(dataDir);
  const probe: HookEndpointProbe = { path, socket, ...(await probeSocket(socket, deadlineMs)) };
  let text: string | null;
  try {
    text = readOwnFile(path);
  } catch (err) {
    if (http) probe.http = { state: 'unreadable', port: 0, detail: (err as Error).message };
    return probe;
  }
  const endpoint = text === null ? null : parseHookEndpoint(text);
  if (endpoint) probe.port = endpoint.port;
  if (!http) return probe;
  if (text === null) probe.http = { state: 'none', port: 0 };
  else if (!endpoint)
    probe.http = { state: 'unreadable', port: 0, detail: 'it does not hold `<port> <token>`' };
  else {
    probe.http = await probeHttpPort(endpoint.port, endpoint.token, deadlineMs);
    if (fetchRefusesPort(endpoint.port)) probe.http.fetchRefused = true;
  }
  return probe;
}
