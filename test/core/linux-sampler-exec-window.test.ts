import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';

// execve's window cannot be hit on demand with a real process: for a few microseconds the new name is
// set (fs/exec.c begin_new_exec → __set_task_comm) while the new image's argument and environment areas
// are not (fs/binfmt_elf.c create_elf_tables sets mm->arg_start/arg_end and env_*), and
// /proc/<pid>/cmdline and environ read empty (fs/proc/base.c get_mm_cmdline: `if (!arg_end) return 0`).
// A full run of the suite once caught Corral there, and it kept the empty argv for good. So this test
// lays out a /proc with the files as the kernel shows them in that window, then as it shows them after.
const PID = 4242;
const roots: string[] = [];

function procRootInExecWindow(): string {
  const root = mkdtempSync(join(tmpdir(), 'corral-proc-'));
  roots.push(root);
  writeFileSync(join(root, 'stat'), readFileSync('/proc/stat'));
  mkdirSync(join(root, 'sys', 'kernel'), { recursive: true });
  writeFileSync(join(root, 'sys', 'kernel', 'pid_max'), '4194304\n');
  mkdirSync(join(root, String(PID)));
  // This process's own stat line, renamed: every field after the name is a real one (state S/R, ppid not 2).
  const own = readFileSync(`/proc/${process.pid}/stat`, 'latin1');
  writeFileSync(join(root, String(PID), 'stat'), `${PID} (sleep) ${own.slice(own.lastIndexOf(')') + 2)}`);
  writeFileSync(join(root, String(PID), 'cmdline'), '');
  writeFileSync(join(root, String(PID), 'environ'), '');
  return root;
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("LinuxSampler and execve's window", () => {
  it('reads argv and markers again at the next look after reading them empty under a new name', () => {
    const root = procRootInExecWindow();
    const sampler = new LinuxSampler({ markerKeys: new Set(['CLAUDECODE']) }, root);
    try {
      const inWindow = sampler.sampleSome([PID]);
      expect(inWindow).toHaveLength(1);
      expect(inWindow[0]).toMatchObject({ pid: PID, name: 'sleep', argv: [], markers: {} });

      writeFileSync(join(root, String(PID), 'cmdline'), 'sleep\u0000600\u0000');
      writeFileSync(join(root, String(PID), 'environ'), 'CLAUDECODE=1\u0000PATH=/usr/bin\u0000');
      const after = sampler.sampleSome([PID]);
      expect(after[0]).toMatchObject({ argv: ['sleep', '600'], markers: { CLAUDECODE: '1' } });
    } finally {
      sampler.close();
    }
  });

  it('keeps a settled argv without reading it again', () => {
    const root = procRootInExecWindow();
    writeFileSync(join(root, String(PID), 'cmdline'), 'sleep\u0000600\u0000');
    const sampler = new LinuxSampler({ markerKeys: new Set() }, root);
    try {
      expect(sampler.sampleSome([PID])[0]!.argv).toEqual(['sleep', '600']);
      // Changed behind the same name and start time: not read again, as for any process that did not exec.
      writeFileSync(join(root, String(PID), 'cmdline'), 'other\u0000');
      expect(sampler.sampleSome([PID])[0]!.argv).toEqual(['sleep', '600']);
    } finally {
      sampler.close();
    }
  });
});
