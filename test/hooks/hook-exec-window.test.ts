import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HOOK_MARKER_KEYS } from '../../main/core/hooks-setup/hook-agents';
import { EXEC_WINDOW_REREAD_WAITS_MS } from '../../main/core/sampling/linux/exec-window';
import { HookProcReader } from '../../main/core/sampling/linux/hook-proc-reader';
import { answerHook, type ServiceHookContext } from '../../main/hooks/hook-answer';
import { PidCounterReadings } from '../../main/hooks/pid-counter-readings';
import { runHook } from '../../main/hooks/run-hook';
import { LaidOutProc } from '../support/laid-out-proc';
import { removeDir } from '../support/spawned-groups';

// execve's window cannot be held open on demand with a real process: past the point of no return,
// begin_new_exec (fs/exec.c) installs the new image's memory (exec_mmap) and sets the new name
// (__set_task_comm); create_elf_tables (fs/binfmt_elf.c) sets the new argument and environment areas
// later, and until then /proc/<pid>/cmdline and environ read empty (fs/proc/base.c: get_mm_cmdline and
// environ_read `if (!mm->env_end) return 0`). A leftover read there shows no agent markers. So these
// tests lay out a /proc as the kernel shows it in that window, and the reader's step before a re-read
// is where the kernel moves on (the files settle) or does not.
const SESSION = 'session-in-the-exec-window';
const MARKERS = `CLAUDECODE=1\u0000CLAUDE_CODE_SESSION_ID=${SESSION}\u0000PATH=/usr/bin\u0000`;
/** Above any pid a test's PID namespace hands out, so nothing real answers at /proc/<pid>. */
const HOOK = 70_000;

const procs: LaidOutProc[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const proc of procs.splice(0)) proc.remove();
  for (const d of dirs.splice(0)) removeDir(d);
});

function laidOut(): LaidOutProc {
  const proc = new LaidOutProc();
  procs.push(proc);
  return proc;
}

function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'corral-exec-window-data-'));
  dirs.push(d);
  return d;
}

/** The kernel finishing the exec of `pid` into `sleep 600` with the session's markers. */
function settle(proc: LaidOutProc, pid: number): void {
  proc.write(pid, 'cmdline', 'sleep\u0000600\u0000');
  proc.write(pid, 'environ', MARKERS);
}

function payload(event: string): string {
  return JSON.stringify({
    session_id: SESSION,
    hook_event_name: event,
    tool_name: 'Bash',
    tool_input: { command: 'setsid sleep 600 &' },
    tool_use_id: 'toolu_exec_window',
    ...(event === 'PostToolUse' ? { tool_response: { stdout: '', stderr: '' } } : {}),
  });
}

function additionalContext(out: string): string {
  if (out === '') return '';
  return (JSON.parse(out) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;
}

/** A laid-out /proc with the hook process itself (a process of the session) and the pid counter at it. */
function procWithHook(): LaidOutProc {
  const proc = laidOut();
  proc.addProcess(HOOK, 'node', { cmdline: 'node\u0000corral.mjs\u0000hook\u0000', environ: MARKERS });
  proc.setLastPid(HOOK);
  return proc;
}

describe.runIf(process.platform === 'linux')("the hook's reader and execve's window", () => {
  it('reads a process found inside the window again, once the rest is read, and sees its markers', () => {
    const proc = laidOut();
    proc.addProcess(4242, 'sleep');
    proc.addProcess(4243, 'bash', { cmdline: 'bash\u0000', environ: MARKERS });
    const waits: number[] = [];
    const reader = new HookProcReader(HOOK_MARKER_KEYS, proc.root, (wait) => {
      waits.push(wait);
      settle(proc, 4242);
    });
    const records = reader.sampleSome([4242, 4243]);
    expect(records.map((r) => [r.pid, r.argv, r.markers.CLAUDE_CODE_SESSION_ID])).toEqual([
      [4242, ['sleep', '600'], SESSION],
      [4243, ['bash'], SESSION],
    ]);
    expect(waits).toEqual([0]);
  });

  it('never waits for a settled process, nor for a zombie or a kernel thread (no argument area at all)', () => {
    const proc = laidOut();
    proc.addProcess(4242, 'sleep', { cmdline: 'sleep\u0000600\u0000', environ: MARKERS });
    proc.addProcess(4244, 'kworker/0:1', { ppid: 2 });
    const waits: number[] = [];
    const reader = new HookProcReader(HOOK_MARKER_KEYS, proc.root, (wait) => waits.push(wait));
    expect(reader.sampleSome([4242, 4244]).map((r) => r.argv)).toEqual([['sleep', '600'], []]);
    expect(waits).toEqual([]);
  });

  it('gives up after a bounded number of re-reads, well inside the hook deadline, and keeps what it read', () => {
    const proc = laidOut();
    proc.addProcess(4242, 'sleep');
    const planned: number[] = [];
    const stuck = new HookProcReader(HOOK_MARKER_KEYS, proc.root, (wait) => planned.push(wait));
    expect(stuck.sampleSome([4242])).toMatchObject([{ pid: 4242, name: 'sleep', argv: [], markers: {} }]);
    expect(planned).toEqual([...EXEC_WINDOW_REREAD_WAITS_MS]);
    expect(planned.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(20);

    // With the real sleeps: the whole look stays far below the client's 1 s read deadline.
    const sleeping = new HookProcReader(HOOK_MARKER_KEYS, proc.root);
    const started = performance.now();
    expect(sleeping.sampleSome([4242])).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('drops a process that exited before the re-read', () => {
    const proc = laidOut();
    proc.addProcess(4242, 'sleep');
    const reader = new HookProcReader(HOOK_MARKER_KEYS, proc.root, () => proc.removeProcess(4242));
    expect(reader.sampleSome([4242])).toEqual([]);
  });

  it('one-shot hook: names a leftover that was inside the window when first read', () => {
    const proc = procWithHook();
    const data = dataDir();
    const reader = new HookProcReader(HOOK_MARKER_KEYS, proc.root, () => settle(proc, HOOK + 1));
    const ctx = { dataDir: data, sampler: reader, pid: HOOK, now: Date.now() };
    expect(runHook('claude-code', 'PreToolUse', payload('PreToolUse'), ctx)).toBe('');

    // The call's shell forked and exec'd `setsid sleep 600`, then exited: the hook finds it mid-exec.
    proc.addProcess(HOOK + 1, 'sleep', { ppid: 1, pgid: HOOK + 1 });
    proc.setLastPid(HOOK + 1);
    const note = additionalContext(runHook('claude-code', 'PostToolUse', payload('PostToolUse'), ctx));
    expect(note).toContain('left 1 process running');
    expect(note).toContain(`- pid ${HOOK + 1} (process group ${HOOK + 1}), command line: "sleep 600"`);
  });

  it('service answer: names a leftover that was inside the window when first read', () => {
    const proc = procWithHook();
    const data = dataDir();
    const reader = new HookProcReader(HOOK_MARKER_KEYS, proc.root, () => settle(proc, HOOK + 1));
    const startKey = reader.startKeyOf(HOOK)!;
    const ctx: ServiceHookContext = {
      dataDir: data,
      sampler: reader,
      nowTicks: startKey,
      tickMs: 10,
      pidMax: 4_194_304,
      now: Date.now(),
      isAgent: () => false,
      lastAnswered: new Map(),
      pidReadings: new PidCounterReadings(3000),
    };
    expect(answerHook('claude-code', 'PreToolUse', payload('PreToolUse'), ctx)).toBe('');

    proc.addProcess(HOOK + 1, 'sleep', { ppid: 1, pgid: HOOK + 1 });
    proc.setLastPid(HOOK + 1);
    const note = additionalContext(answerHook('claude-code', 'PostToolUse', payload('PostToolUse'), ctx));
    expect(note).toContain(`- pid ${HOOK + 1} (process group ${HOOK + 1}), command line: "sleep 600"`);
  });

  it('still unreadable: named when its lineage is the session, as a program starting; a stranger is not', () => {
    const proc = procWithHook();
    const data = dataDir();
    const reader = new HookProcReader(HOOK_MARKER_KEYS, proc.root, () => {});
    const ctx = { dataDir: data, sampler: reader, pid: HOOK, now: Date.now() };
    runHook('claude-code', 'PreToolUse', payload('PreToolUse'), ctx);

    const server = HOOK + 1;
    // A leftover dev server of the call, starting a worker that stays inside the window.
    proc.addProcess(server, 'node', {
      cmdline: 'node\u0000dev.js\u0000',
      environ: MARKERS,
      ppid: 1,
      pgid: server,
    });
    proc.addProcess(HOOK + 2, 'esbuild', { ppid: server, pgid: HOOK + 2 });
    // Another command of the same group whose parent already exited (the group is the call's).
    proc.addProcess(HOOK + 3, 'tsc', { ppid: 1, pgid: server });
    // Someone else's command starting at that moment: new, unreadable, nothing ties it to the session.
    proc.addProcess(HOOK + 4, 'make', { ppid: 1, pgid: HOOK + 4 });
    proc.setLastPid(HOOK + 4);

    const note = additionalContext(runHook('claude-code', 'PostToolUse', payload('PostToolUse'), ctx));
    expect(note).toContain('left 3 processes running');
    expect(note).toContain(`- pid ${server} (process group ${server}), command line: "node dev.js"`);
    expect(note).toContain(
      `- pid ${HOOK + 2} (process group ${HOOK + 2}), starting the program "esbuild" (its command line is not readable until it has started)`,
    );
    expect(note).toContain(`- pid ${HOOK + 3} (process group ${server}), starting the program "tsc"`);
    expect(note).not.toContain(`pid ${HOOK + 4}`);
    expect(note).not.toContain('make');
  });
});
