import { Agent, request } from 'node:http';

/** One connection, kept between posts: as an agent's HTTP client keeps its hook endpoint's. */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/**
 * POSTs `body` over HTTP/1.1 with node:http, as Claude Code's http hooks are posted (axios on its
 * node:http adapter), and resolves to the answer's status and text. fetch (undici) was measured adding
 * about 1.5 ms at the median and more at p95 against a server that answers at once
 * (bench/hook-client-overhead.ts): the bench's own cost, not the hook's.
 */
export function loopbackPost(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
