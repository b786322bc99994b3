// What an after-tool answer of the running Corral's hook server costs when the call's leftover holds a
// listening socket (a dev server) and when it does not: `unshare --pid --fork --mount-proc --kill-child
// tini -- npx tsx bench/hook-port-cost.ts [calls]`. Two sessions each leave one process behind (`sleep`,
// and a Node server listening on 127.0.0.1:0); the same answer (answerHook, in this process, as the
// server calls it) is asked `calls` times (200) for each, alternating, and its CPU (user + system) and
// wall time are printed in µs: the difference is what naming the listener's port costs. A third row
// answers for the listener as the one-shot hook does, from the /proc/net TCP tables.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerHook } from '../main/hooks/hook-answer';
import { serviceHookContextFactory } from '../main/hooks/service-hook-context';
import { benchEnv, killAllCreatedSync, removeGroups, trackGroup } from './lib/populations';
import { median, percentile } from './lib/stats';
import { sleep, waitUntil } from './lib/wait';

const LISTENER = "require('node:net').createServer().listen(0, '127.0.0.1', () => console.log('up'))";

/** A tool call's shell that leaves `argv` running in the background, in session `session`. */
async function leaveBehind(session: string, command: string): Promise<number> {
  const env = benchEnv({ CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: session });
  const shell = spawn('/bin/bash', ['-c', `${command} >/dev/null 2>&1 & echo $!`], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
    env,
  });
  trackGroup(shell.pid!);
  let out = '';
  shell.stdout.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise((resolve) => shell.on('close', resolve));
  return Number(out.trim());
}

/** How many sockets `pid` holds: the server has listened once it holds one. */
function socketCount(pid: number): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) n++;
    } catch {
      // closed meanwhile
    }
  }
  return n;
}

function payload(session: string, durationMs: number): string {
  return JSON.stringify({
    session_id: session,
    tool_use_id: 'toolu_portcost',
    tool_name: 'Bash',
    tool_input: { command: 'a server &' },
    hook_event_name: 'PostToolUse',
    duration_ms: durationMs,
  });
}

async function main(): Promise<void> {
  const calls = Number(process.argv[2] ?? 200);
  const data = mkdtempSync(join(tmpdir(), 'corral-port-cost-'));
  try {
    // The walk for a call's processes stops at the first older one: an older process, and the call
    // begins later than the 2 s the answer takes a call to have begun before `now − duration_ms`.
    const older = spawn('/bin/sleep', ['600'], { detached: true, stdio: 'ignore', env: benchEnv() });
    trackGroup(older.pid!);
    await sleep(2_500);
    const began = performance.now();
    const plain = await leaveBehind(`plain-${process.pid}`, 'sleep 600');
    const server = await leaveBehind(`server-${process.pid}`, `node -e "${LISTENER}"`);
    await waitUntil('the server to listen', () => socketCount(server) > 0, 10_000);
    const context = serviceHookContextFactory(data)!;
    const cases = [
      {
        name: 'leftover without sockets',
        session: `plain-${process.pid}`,
        pid: plain,
        cpu: [] as number[],
        wall: [] as number[],
      },
      {
        name: 'leftover listening (TCP)',
        session: `server-${process.pid}`,
        pid: server,
        cpu: [] as number[],
        wall: [] as number[],
      },
      {
        name: 'listening, /proc/net tables',
        session: `server-${process.pid}`,
        pid: server,
        tables: true,
        cpu: [] as number[],
        wall: [] as number[],
      },
    ];
    for (let i = 0; i < calls + 10; i++) {
      for (const c of cases) {
        const ctx = context();
        // Each answer is the session's first: the call is taken to have begun before both leftovers.
        ctx.lastAnswered.clear();
        // The one-shot hook's way: the TCP tables, not the service's sock_diag dump.
        if ('tables' in c) delete ctx.tcpPorts;
        const duration = Math.ceil(performance.now() - began);
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        const out = answerHook('claude-code', 'PostToolUse', payload(c.session, duration), ctx);
        const wall = (performance.now() - t0) * 1000;
        const cpu = process.cpuUsage(cpu0);
        if (!out.includes(`pid ${c.pid} `))
          throw new Error(`${c.name}: the answer did not name ${c.pid}: ${out}`);
        if (c.pid === server && !out.includes('listening on port')) throw new Error(`no port named: ${out}`);
        if (i < 10) continue;
        c.cpu.push(cpu.user + cpu.system);
        c.wall.push(wall);
      }
    }
    const f = (v: number): string => v.toFixed(0).padStart(6);
    console.log(`${calls} answers each (µs)            cpu p50  cpu p95  wall p50  wall p95`);
    for (const c of cases)
      console.log(
        `${c.name.padEnd(30)} ${f(median(c.cpu))}  ${f(percentile(c.cpu, 95))}  ${f(median(c.wall))}   ${f(percentile(c.wall, 95))}`,
      );
  } finally {
    rmSync(data, { recursive: true, force: true });
    await removeGroups();
  }
}

process.on('exit', killAllCreatedSync);
void main();
