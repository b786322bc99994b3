import { request } from 'node:http';
import { readOwnFile } from '../storage/own-data-dir';
import { HOOK_TOKEN_HEADER, hookEndpointPath, parseHookEndpoint } from './hook-endpoint';
import type { HookEndpointState } from '../../../shared/hook-endpoint';

export type { HookEndpointState };

export interface HookEndpointProbe {
  /** Who answers there (see HookEndpointState). */
  state: HookEndpointState;
  /** The endpoint file. */
  path: string;
  /** The port it names, when it names one. */
  port?: number;
  detail?: string;
}

/** How long the probe waits for an answer: the hook client's own read deadline. */
export const PROBE_DEADLINE_MS = 1_000;

/** The answer of whatever listens on `port` to a stats request with `token`; never rejects. */
function ask(
  port: number,
  token: string,
  deadlineMs: number,
): Promise<Omit<HookEndpointProbe, 'path' | 'port'>> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'GET',
        path: '/hook/stats',
        headers: { [HOOK_TOKEN_HEADER]: token, connection: 'close' },
        timeout: deadlineMs,
      },
      (res) => {
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
      },
    );
    req.on('timeout', () => {
      req.destroy();
      resolve({ state: 'not-answering' });
    });
    // After a timeout the destroyed request errs too; the probe has resolved by then.
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED') resolve({ state: 'not-listening' });
      else resolve({ state: 'not-corral', detail: err.code ?? err.message });
    });
    req.end();
  });
}

/** Reads the endpoint file (creating nothing) and asks its port, as `corral hooks status` does. */
export async function probeHookEndpoint(
  dataDir: string,
  deadlineMs = PROBE_DEADLINE_MS,
): Promise<HookEndpointProbe> {
  const path = hookEndpointPath(dataDir);
  let text: string | null;
  try {
    text = readOwnFile(path);
  } catch (err) {
    return { state: 'unreadable', path, detail: (err as Error).message };
  }
  if (text === null) return { state: 'none', path };
  const endpoint = parseHookEndpoint(text);
  if (!endpoint) return { state: 'unreadable', path, detail: 'it does not hold `<port> <token>`' };
  return { path, port: endpoint.port, ...(await ask(endpoint.port, endpoint.token, deadlineMs)) };
}
