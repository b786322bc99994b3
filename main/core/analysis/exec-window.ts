/** What a look at a process shows that tells execve's window (a record, or a stat and argv just read). */
export interface ExecWindowLook {
  pid: number;
  ppid: number;
  state: string;
  argv: readonly string[];
}

/**
 * Was this process read inside execve's window? Past the point of no return, begin_new_exec
 * (fs/exec.c) installs the new image's memory (exec_mmap) and sets the new name (__set_task_comm);
 * the new argument and environment areas are set up only later, by create_elf_tables
 * (fs/binfmt_elf.c: mm->arg_start/arg_end, then env_start/env_end). Until then env_end is 0, and
 * /proc/<pid>/cmdline and environ read empty (fs/proc/base.c: get_mm_cmdline and environ_read
 * `if (!mm->env_end) return 0`). The window lasts microseconds, more under load: read it again.
 *
 * A settled process always shows at least one argument (an empty argv reads as one empty string since
 * Linux 5.18 forces argv[0]), except zombies and kernel threads (children of kthreadd, pid 2), which
 * have no argument area at all.
 */
export function readInExecWindow(p: ExecWindowLook): boolean {
  return p.argv.length === 0 && p.state !== 'Z' && p.ppid !== 2 && p.pid !== 2;
}

/**
 * A record whose command line and environment both read empty: read inside execve's window (and never
 * a macOS process whose arguments were refused, which reads as no argv and no environment).
 */
export function recordInExecWindow(r: ExecWindowLook & { environReadable: boolean }): boolean {
  return r.environReadable && readInExecWindow(r);
}
