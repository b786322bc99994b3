import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A /proc laid out in a temporary directory, for the few kernel windows a real process cannot be held
 * in on demand (each test cites the kernel code that opens the window). Files hold what the kernel shows.
 */
export class LaidOutProc {
  readonly root = mkdtempSync(join(tmpdir(), 'corral-proc-'));

  constructor() {
    writeFileSync(join(this.root, 'stat'), readFileSync('/proc/stat'));
    mkdirSync(join(this.root, 'sys', 'kernel'), { recursive: true });
    writeFileSync(join(this.root, 'sys', 'kernel', 'pid_max'), '4194304\n');
    this.setLastPid(1);
  }

  /** /proc/loadavg's last field: the last pid the kernel allocated. */
  setLastPid(pid: number): void {
    writeFileSync(join(this.root, 'loadavg'), `0.00 0.01 0.05 1/79 ${pid}\n`);
  }

  /**
   * A process named `name`: its stat line is this test process's own with pid and name replaced (so every
   * other field is a real one: state S or R, ppid not 2), with the given cmdline and environ, and the
   * given parent and process group when named (fields 4 and 5 of proc(5)'s stat).
   */
  addProcess(
    pid: number,
    name: string,
    {
      cmdline = '',
      environ = '',
      ppid,
      pgid,
    }: { cmdline?: string; environ?: string; ppid?: number; pgid?: number } = {},
  ): void {
    mkdirSync(join(this.root, String(pid)), { recursive: true });
    const own = readFileSync(`/proc/${process.pid}/stat`, 'latin1');
    const fields = own.slice(own.lastIndexOf(')') + 2).split(' ');
    if (ppid !== undefined) fields[1] = String(ppid);
    if (pgid !== undefined) fields[2] = String(pgid);
    writeFileSync(join(this.root, String(pid), 'stat'), `${pid} (${name}) ${fields.join(' ')}`);
    this.write(pid, 'cmdline', cmdline);
    this.write(pid, 'environ', environ);
  }

  /** A process that exited and was reaped: its directory is gone. */
  removeProcess(pid: number): void {
    rmSync(join(this.root, String(pid)), { recursive: true, force: true });
  }

  write(pid: number, file: 'cmdline' | 'environ', text: string): void {
    writeFileSync(join(this.root, String(pid), file), text);
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
