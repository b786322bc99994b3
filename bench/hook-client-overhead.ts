// How much of the hook bench's agent-visible wait is its own HTTP client's: `npx tsx
// bench/hook-client-overhead.ts [calls]`. A server in a process of its own answers every POST at once
// (no work, an answer of a note's size, the hook server's keep-alive), and this process posts to it
// `calls` (200) times per client, each after spawning a short-lived process as the bench's tool shell
// does: with fetch (undici, as bench/lib/http-hook-call.ts did), and with node:http on a keep-alive
// agent (lib/loopback-post.ts: HTTP/1.1 on loopback, as Claude Code's axios posts its http hooks).
// With each, how long the server's and this process's main threads waited for a CPU during the post
// (schedstat's run delay): the machine's share.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loopbackPost } from './lib/loopback-post';
import { median, percentile } from './lib/stats';
import { waitUntil } from './lib/wait';

const SERVER = `
const http = require('node:http');
const note = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'x'.repeat(600) } });
const server = http.createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(note) });
    res.end(note);
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => console.log('ready ' + server.address().port));
`;

const BODY = JSON.stringify({
  session_id: '00000000-0000-0000-0000-000000000000',
  tool_use_id: 'toolu_overhead',
  tool_name: 'Bash',
  tool_input: { command: 'sleep 600 &', description: 'bench' },
  hook_event_name: 'PostToolUse',
  duration_ms: 12,
});

/** Run delay (ms) of a process's main thread: time runnable but not running (schedstat's second field). */
function runDelayMs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, 'latin1').split(' ')[1]) / 1e6;
}

async function viaFetch(url: string): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: BODY,
  });
  await res.text();
}

async function viaHttp(url: string): Promise<void> {
  await loopbackPost(url, { 'content-type': 'application/json' }, BODY);
}

/** A tool call's shape before its hook: a short-lived process, waited for. */
function toolShell(): Promise<void> {
  const child = spawn('/bin/true', [], { stdio: 'ignore' });
  return new Promise((resolve) => child.on('close', () => resolve()));
}

async function main(): Promise<void> {
  const calls = Number(process.argv[2] ?? 200);
  const server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  server.stdout.on('data', (c: Buffer) => (out += c.toString()));
  try {
    await waitUntil('the idle server to listen', () => out.startsWith('ready '), 10_000);
    const url = `http://127.0.0.1:${out.trim().split(' ')[1]}/hook/claude-code/PostToolUse`;
    const clients: [string, (url: string) => Promise<void>][] = [
      ['fetch (undici)', viaFetch],
      ['node:http, keep-alive agent', viaHttp],
    ];
    const results = new Map(clients.map(([name]) => [name, [] as number[]]));
    const delays = new Map(clients.map(([name]) => [name, [] as number[]]));
    const ownDelays = new Map(clients.map(([name]) => [name, [] as number[]]));
    for (let i = 0; i < calls + 10; i++) {
      for (const [name, post] of clients) {
        await toolShell();
        const delay = runDelayMs(server.pid!);
        const ownDelay = runDelayMs(process.pid);
        const t = performance.now();
        await post(url);
        const ms = performance.now() - t;
        if (i < 10) continue;
        results.get(name)!.push(ms);
        delays.get(name)!.push(runDelayMs(server.pid!) - delay);
        ownDelays.get(name)!.push(runDelayMs(process.pid) - ownDelay);
      }
    }
    const f = (v: number): string => v.toFixed(2).padStart(7);
    console.log(
      `load average ${readFileSync('/proc/loadavg', 'latin1').split(' ').slice(0, 3).join(' ')}; ${calls} posts each to a server that answers at once (ms)`,
    );
    console.log(`${'client'.padEnd(30)}  wait p50  wait p95  wait max  run delay p95: server  client`);
    for (const [name, values] of results)
      console.log(
        `${name.padEnd(30)}  ${f(median(values))}   ${f(percentile(values, 95))}   ${f(Math.max(...values))}   ${f(percentile(delays.get(name)!, 95))}   ${f(percentile(ownDelays.get(name)!, 95))}`,
      );
  } finally {
    server.kill('SIGTERM');
  }
}

void main();
