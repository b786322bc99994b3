import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timedCommand } from '../lib/timed-command';
import { benchEnv, killGroup } from '../lib/populations';
import { sampledRow, type Row } from '../lib/table';
import { expectNote, hookPayload, toolShell } from '../lib/tool-call';

const BUILT_HOOK = fileURLToPath(new URL('../../out/main/corral-hook.js', import.meta.url));
/**
 * What the installed hook command runs: the built hook entry (what `corral hooks install` writes), or
 * CORRAL_BENCH_HOOK_ENTRY (e.g. an older build's out/main/corral.js, to compare on the same table).
 */
const BUILT_CLI = process.env.CORRAL_BENCH_HOOK_ENTRY ?? BUILT_HOOK;

export interface HookLatency {
  /** Wall time of `corral hook claude-code PostToolUse`, spawn to exit, ms. */
  postMs: number[];
  /** CPU time (user + system) of the same hook process, ms: what the machine's load does not inflate. */
  postCpuMs: number[];
  /** Wall time of `node -e ''`, the floor any Node hook pays. */
  nodeFloorMs: number[];
  nodeFloorCpuMs: number[];
  missing?: string;
}

/**
 * What an agent waits for after each Bash call: the built CLI's PostToolUse hook, spawned as the
 * agent spawns it, on the table as it is (the bench runs it with its 4,000 extra processes). Each
 * trial is a real tool call's shape: the PreToolUse hook, a shell in its own group that leaves
 * `sleep` behind and exits, then the timed PostToolUse hook, which must name the leftover.
 */
export async function measureHookLatency(trials: number): Promise<HookLatency> {
  if (!existsSync(BUILT_CLI)) {
    const missing = `no ${BUILT_CLI} (npm run build)`;
    return { postMs: [], postCpuMs: [], nodeFloorMs: [], nodeFloorCpuMs: [], missing };
  }
  const data = mkdtempSync(join(tmpdir(), 'corral-bench-hook-'));
  const env = benchEnv({ CORRAL_DATA_DIR: data });
  const session = randomUUID();
  const postMs: number[] = [];
  const postCpuMs: number[] = [];
  const nodeFloorMs: number[] = [];
  const nodeFloorCpuMs: number[] = [];
  try {
    for (let i = 0; i < trials; i++) {
      timedCommand(
        [process.execPath, BUILT_CLI, 'hook', 'claude-code', 'PreToolUse'],
        hookPayload(session, i, 'PreToolUse'),
        env,
      );
      const shell = await toolShell({ CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: session });
      const post = timedCommand(
        [process.execPath, BUILT_CLI, 'hook', 'claude-code', 'PostToolUse'],
        hookPayload(session, i, 'PostToolUse'),
        env,
      );
      expectNote(post.stdout, shell.leftover, 'the PostToolUse hook');
      postMs.push(post.ms);
      postCpuMs.push(post.cpuMs);
      killGroup(shell.pgid);
      const floor = timedCommand([process.execPath, '-e', ''], '', env);
      nodeFloorMs.push(floor.ms);
      nodeFloorCpuMs.push(floor.cpuMs);
    }
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
  return { postMs, postCpuMs, nodeFloorMs, nodeFloorCpuMs };
}

export function hookLatencyRows(extra: number, h: HookLatency): Row[] {
  const section = `agent hook, ${extra.toLocaleString('en-US')} extra processes`;
  const { missing } = h;
  const entry = BUILT_CLI.split('/').slice(-1)[0];
  return [
    sampledRow(
      section,
      `corral hook claude-code PostToolUse (${entry}, one leftover to report)`,
      'ms',
      h.postMs,
      {
        p95AtMost: 150,
        note: `${h.postMs.length} trials; wall time spawn → exit, as the agent waits for it`,
        missing,
      },
    ),
    sampledRow(section, 'the same hook, CPU time (user + system)', 'ms', h.postCpuMs, {
      note: 'what a busy machine does not inflate',
      missing,
    }),
    sampledRow(section, "node -e '' (the floor of any Node hook)", 'ms', h.nodeFloorMs, {
      note: 'wall time; the same machine at the same moment, for scale',
      missing,
    }),
    sampledRow(section, "node -e '', CPU time", 'ms', h.nodeFloorCpuMs, { missing }),
  ];
}
