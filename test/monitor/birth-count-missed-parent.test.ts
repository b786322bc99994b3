import { afterEach, expect, it } from 'vitest';
import { LaidOutProc } from '../support/laid-out-proc';
import { monitorOnLaidOutProc } from '../support/laid-out-monitor';

// A pid the counter announced that /proc did not show yet (mid-fork: kernel/fork.c allocates the pid
// before attach_pid) is counted among a run of unread births. One allocated long before its look's
// newest is not read again at the next look (pending-births); it can still be read later as the missed
// parent of its own child. It was born once: the run it sits in must be one shorter, or make -j2 counted
// 609 births for 608 pids. The window cannot be held open on a real fork, so it is laid out here.
const CLAUDE_ENV = 'CLAUDECODE=1\0CLAUDE_CODE_SESSION_ID=s-1\0';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.splice(0)) c();
});

it('counts a birth read late as a missed parent once, not also in the run of unread pids around it', () => {
  const proc = new LaidOutProc();
  cleanup.push(() => proc.remove());
  proc.addProcess(100, 'claude', { cmdline: 'claude\0', environ: 'CLAUDE_CODE_ENTRYPOINT=cli\0' });
  proc.addProcess(101, 'bash', { cmdline: 'bash\0-c\0make\0', environ: CLAUDE_ENV, ppid: 100, pgid: 101 });
  proc.setLastPid(101);
  const monitor = monitorOnLaidOutProc(proc, (stop) => cleanup.push(stop));
  monitor.poll();
  const group = monitor.liveGroup(101);
  expect(group?.agent?.name).toBe('claude-code');

  // 199 pids allocated: 150 is read; the rest are gone, or (160) not attached yet.
  const child = (pid: number, ppid = 101) =>
    proc.addProcess(pid, 'cc', { cmdline: 'cc\0-c\0x.c\0', environ: CLAUDE_ENV, ppid, pgid: 101 });
  child(150);
  proc.setLastPid(300);
  monitor.watch();
  const afterFirst = group!.spawns!.window.total;

  // 160 attached since, and forked 305: reading 305 reads its parent 160, never read before.
  child(160);
  child(305, 160);
  proc.setLastPid(305);
  monitor.watch();
  expect([...monitor.trackedProcesses()].some((p) => p.record.pid === 160)).toBe(true);
  // 150 to 305 are 156 pids: no more births than that.
  expect(group!.spawns!.window.total).toBeLessThanOrEqual(afterFirst + 155);
  expect(group!.spawns!.window.total).toBe(afterFirst + 155);
});
