import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureHttpHookEndpoint } from '../../main/core/hooks-setup/hook-endpoint';
import { perlProgram, writeHookClient } from '../../main/core/hooks-setup/hook-client-script';
import { buildNativeHookClient, cCompiler } from '../../main/core/hooks-setup/native-hook-client';
import { shellQuote } from '../../main/core/hooks-setup/shell-quote';
import { timedCommand } from '../lib/timed-command';
import { benchEnv, killGroup } from '../lib/populations';
import { sampledRow, type Row } from '../lib/table';
import { expectNote, hookCallId, hookPayload, toolShell } from '../lib/tool-call';
import { writeCodexFunctionCall } from '../../test/support/codex-transcript';
import { httpHookCall } from '../lib/http-hook-call';
import { waitUntil } from '../lib/wait';
import { bundleForNode } from '../lib/plain-node';
import { processCpuMs } from '../lib/process-cpu';

const CHILD = fileURLToPath(new URL('../hook-server-child.ts', import.meta.url));
const BUILT_HOOK = fileURLToPath(new URL('../../out/main/corral-hook.js', import.meta.url));

/** Per tool call: what the agent waits for (ms) and the CPU Corral spends in all its processes (ms). */
export interface HookPath {
  waitMs: number[];
  cpuMs: number[];
  /** Of cpuMs, the service's share (read around each hook, as for the http hook). */
  serviceCpuMs: number[];
}

export interface HookServiceResult {
  /** Claude Code's http hook answered by the running Corral (PostToolUse only). */
  http: HookPath;
  /** Claude Code's command client as `hooks install` writes it, answered by the running Corral (PostToolUse only). */
  claudeClient: HookPath;
  /** The same with the perl client, which `hooks install` writes where no C compiler is. */
  claudePerlClient: HookPath;
  /** Codex's command client answered by the running Corral (PostToolUse alone, its start from the transcript). */
  client: HookPath;
  /** Which client `hooks install` chose here: 'C' where a C compiler is, else 'perl'. */
  clientKind: 'C' | 'perl';
  /** `perl -e 0` spawned as the clients are, beside them: the floor of the perl client. */
  perlFloorCpuMs: number[];
  /** `/bin/true` spawned as the clients are, beside them: the floor of any process per hook. */
  trueFloorCpuMs: number[];
  /** No service: the client finds nothing listening and runs the one-shot hook (Codex's PostToolUse). */
  clientFallback: HookPath;
  /** No service, the one-shot hook alone (Codex's PostToolUse). */
  oneShot: HookPath;
  missing?: string;
}

const WARMUP_CALLS = 10;

async function startServer(data: string): Promise<ChildProcess> {
  // Bundled to plain JavaScript, as the service ships: under tsx its loader would be measured too.
  const child = spawn(process.execPath, [await bundleForNode(CHILD), data], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: benchEnv({ CORRAL_DATA_DIR: data }),
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  await waitUntil('the hook server to listen', () => out.startsWith('ready '), 30_000);
  return child;
}

/**
 * Per tool call, with the running Corral answering (its hook server in a process of its own, whose
 * CPU is read from schedstat around each call) and without (today's one-shot hooks, and the client
 * falling back to them), each trial a real tool call's shape: a shell that leaves `sleep` behind and
 * exits, then the hook(s) the agent runs, which must name the leftover.
 */
export async function measureHookService(trials: number): Promise<HookServiceResult> {
  const empty = (): HookPath => ({ waitMs: [], cpuMs: [], serviceCpuMs: [] });
  const result: HookServiceResult = {
    http: empty(),
    claudeClient: empty(),
    claudePerlClient: empty(),
    client: empty(),
    clientKind: 'perl',
    perlFloorCpuMs: [],
    trueFloorCpuMs: [],
    clientFallback: empty(),
    oneShot: empty(),
  };
  if (!existsSync(BUILT_HOOK)) return { ...result, missing: `no ${BUILT_HOOK} (npm run build)` };
  const data = mkdtempSync(join(tmpdir(), 'corral-bench-hookservice-'));
  const env = benchEnv({ CORRAL_DATA_DIR: data });
  // Http hooks are installed only by root, on a port only root may bind (http-hooks-port.ts).
  const endpoint = process.geteuid?.() === 0 ? ensureHttpHookEndpoint(data) : null;
  const perl = perlProgram();
  if (!perl) return { ...result, missing: 'no perl for the hook client' };
  const oneShot = [process.execPath, BUILT_HOOK];
  const perlClient = [perl, writeHookClient(data, oneShot.map(shellQuote).join(' '))];
  // The client `hooks install` chooses (hook-client-choice.ts): C where a compiler is, else perl.
  const compiler = cCompiler(process.env);
  const native = compiler ? buildNativeHookClient(data, oneShot.map(shellQuote).join(' '), compiler) : null;
  const client = native?.path ? [native.path] : perlClient;
  result.clientKind = native?.path ? 'C' : 'perl';
  const session = randomUUID();
  // Codex's transcript, where it writes each function call before running it (tool-duration.ts).
  const transcript = join(data, `rollout-${session}.jsonl`);
  // The session's markers, as Claude Code and Codex set them in a tool's environment.
  const markers = { CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: session, CODEX_THREAD_ID: session };
  try {
    const server = await startServer(data);
    try {
      // A running service has answered many calls before the one measured: a few whole tool calls first,
      // so the rows are its steady state, not V8 compiling the answer's code on the first requests.
      const answering = endpoint && { pid: server.pid!, port: endpoint.port, token: endpoint.token };
      for (let i = 0; i < WARMUP_CALLS; i++) {
        if (answering) await httpHookCall(answering, session, markers, -1 - i);
        writeCodexFunctionCall(transcript, hookCallId(-1 - i), 'sleep 600 &');
        timedCommand(
          [...client, 'hook', 'codex', 'PostToolUse'],
          hookPayload(session, -1 - i, 'PostToolUse', undefined, transcript),
          env,
        );
      }
      for (let i = 0; i < trials; i++) {
        // Claude Code's http hook: the agent's own request; only the service's CPU is Corral's.
        if (answering) {
          const http = await httpHookCall(answering, session, markers, i);
          result.http.waitMs.push(http.waitMs);
          result.http.cpuMs.push(http.cpuMs);
        }

        // Claude Code's command client as `hooks install` writes it: the call, then PostToolUse alone
        // (its duration_ms stands for PreToolUse), answered by the service over the socket; then the same
        // with the perl client, side by side.
        for (const [path, argv] of [
          [result.claudeClient, client],
          [result.claudePerlClient, perlClient],
        ] as const) {
          const began = performance.now();
          const tool1 = await toolShell(markers);
          const cpuBeforeClaude = processCpuMs(server.pid!);
          const claude = timedCommand(
            [...argv, 'hook', 'claude-code', 'PostToolUse'],
            hookPayload(session, i, 'PostToolUse', Math.ceil(performance.now() - began)),
            env,
          );
          const serviceClaude = processCpuMs(server.pid!) - cpuBeforeClaude;
          path.waitMs.push(claude.ms);
          path.cpuMs.push(claude.cpuMs + serviceClaude);
          path.serviceCpuMs.push(serviceClaude);
          expectNote(claude.stdout, tool1.leftover, `Claude Code's client (${argv.join(' ')})`);
          killGroup(tool1.pgid);
        }
        result.perlFloorCpuMs.push(timedCommand([perl, '-e', '0'], '', env).cpuMs);
        result.trueFloorCpuMs.push(timedCommand(['/bin/true'], '', env).cpuMs);

        // Codex's command client as `hooks install` writes it, answered by the service: the call (its
        // function call in the transcript first, as Codex writes it), then PostToolUse alone.
        writeCodexFunctionCall(transcript, hookCallId(i), 'sleep 600 &');
        const tool2 = await toolShell(markers);
        const cpuBeforePost = processCpuMs(server.pid!);
        const post = timedCommand(
          [...client, 'hook', 'codex', 'PostToolUse'],
          hookPayload(session, i, 'PostToolUse', undefined, transcript),
          env,
        );
        const servicePost = processCpuMs(server.pid!) - cpuBeforePost;
        result.client.waitMs.push(post.ms);
        result.client.cpuMs.push(post.cpuMs + servicePost);
        result.client.serviceCpuMs.push(servicePost);
        expectNote(post.stdout, tool2.leftover, 'the client');
        killGroup(tool2.pgid);
      }
    } finally {
      server.kill('SIGTERM');
      await new Promise((r) => server.on('exit', r));
    }
    for (let i = 0; i < trials; i++) {
      for (const [path, argv] of [
        [result.oneShot, [...oneShot, 'hook', 'codex']],
        [result.clientFallback, [...client, 'hook', 'codex']],
      ] as const) {
        writeCodexFunctionCall(transcript, hookCallId(i + trials), 'sleep 600 &');
        const tool = await toolShell(markers);
        const post = timedCommand(
          [...argv, 'PostToolUse'],
          hookPayload(session, i + trials, 'PostToolUse', undefined, transcript),
          env,
        );
        path.waitMs.push(post.ms);
        path.cpuMs.push(post.cpuMs);
        expectNote(post.stdout, tool.leftover, argv.join(' '));
        killGroup(tool.pgid);
      }
    }
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
  return result;
}

export function hookServiceRows(extra: number, r: HookServiceResult): Row[] {
  const section = `agent hook per tool call, ${extra.toLocaleString('en-US')} extra processes`;
  const row = (name: string, unit: string, values: number[], target: number | null, note: string): Row =>
    sampledRow(section, name, unit, values, { p95AtMost: target ?? undefined, note, missing: r.missing });
  const n = `${r.http.waitMs.length} trials`;
  const kind = r.clientKind;
  return [
    row(
      'service running, Claude Code http hook: agent waits',
      'ms',
      r.http.waitMs,
      15,
      `${n}; PostToolUse only, no process`,
    ),
    row(
      'service running, Claude Code http hook: CPU by Corral',
      'ms',
      r.http.cpuMs,
      5,
      'the service process, schedstat',
    ),
    // The path `corral hooks install` chooses with a service running (unless --http): the C socket
    // client where a C compiler is, else the perl one (hooks-setup/hook-client-choice.ts), answered
    // over the data directory's socket.
    row(
      "service running, Claude Code's command client: agent waits",
      'ms',
      r.claudeClient.waitMs,
      null,
      `PostToolUse only (duration_ms), one ${kind} client process`,
    ),
    row(
      "service running, Claude Code's command client: CPU by Corral",
      'ms',
      r.claudeClient.cpuMs,
      5,
      `hooks install's path: the ${kind} socket client + the service around the hook (target: 5 ms per tool call)`,
    ),
    row(
      "service running, Claude Code's command client: CPU by the service alone",
      'ms',
      r.claudeClient.serviceCpuMs,
      null,
      `PostToolUse answered; the rest of the row above is the ${kind} client process`,
    ),
    row(
      "service running, Claude Code's perl client (no C compiler): CPU by Corral",
      'ms',
      r.claudePerlClient.cpuMs,
      null,
      "hooks install's path where no C compiler is: the perl socket client + the service, beside the row above",
    ),
    row(
      'perl -e 0 spawned as the clients are: CPU',
      'ms',
      r.perlFloorCpuMs,
      null,
      "the perl client's floor, from this (Node) parent, at the same moments",
    ),
    row(
      '/bin/true spawned as the clients are: CPU',
      'ms',
      r.trueFloorCpuMs,
      null,
      'the floor of any process per hook, from this (Node) parent (fork, exec, exit), at the same moments',
    ),
    row(
      'service running, Codex command client: agent waits',
      'ms',
      r.client.waitMs,
      null,
      `PostToolUse alone (its start from Codex's transcript), one ${kind} client process`,
    ),
    row(
      'service running, Codex command client: CPU by Corral',
      'ms',
      r.client.cpuMs,
      5,
      `hooks install's path for Codex: the ${kind} socket client + the service around the hook`,
    ),
    row(
      'service running, Codex command client: CPU by the service alone',
      'ms',
      r.client.serviceCpuMs,
      null,
      `PostToolUse answered; the rest of the row above is the ${kind} client process`,
    ),
    row(
      'no service, one-shot hooks (today): agent waits',
      'ms',
      r.oneShot.waitMs,
      null,
      "Codex's PostToolUse alone, one node",
    ),
    row('no service, one-shot hooks (today): CPU', 'ms', r.oneShot.cpuMs, null, 'the hook process'),
    row(
      'no service, command client falling back: agent waits',
      'ms',
      r.clientFallback.waitMs,
      null,
      'refused at once, then the one-shot hook replaces the client (exec)',
    ),
    row(
      'no service, command client falling back: CPU',
      'ms',
      r.clientFallback.cpuMs,
      null,
      `the ${kind} client + the one-shot hook it becomes (exec)`,
    ),
  ];
}
