import { afterEach, describe, expect, it } from 'vitest';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { LaidOutProc } from '../support/laid-out-proc';

// execve's window cannot be hit on demand with a real process: for a few microseconds the new name is
// set (fs/exec.c begin_new_exec → __set_task_comm) while the new image's argument and environment areas
// are not (fs/binfmt_elf.c create_elf_tables sets mm->arg_start/arg_end and env_*), and
// /proc/<pid>/cmdline and environ read empty (fs/proc/base.c get_mm_cmdline and environ_read:
// `if (!mm->env_end) return 0`).
// A full run of the suite once caught Corral there, and it kept the empty argv for good. So this test
// lays out a /proc with the files as the kernel shows them in that window, then as it shows them after.
const PID = 4242;
const procs: LaidOutProc[] = [];

function procInExecWindow(): LaidOutProc {
  const proc = new LaidOutProc();
  procs.push(proc);
  proc.addProcess(PID, 'sleep');
  return proc;
}

afterEach(() => {
  for (const proc of procs.splice(0)) proc.remove();
});

describe("LinuxSampler and execve's window", () => {
  it('reads argv and markers again at the next look after reading them empty under a new name', () => {
    const proc = procInExecWindow();
    const sampler = new LinuxSampler({ markerKeys: new Set(['CLAUDECODE']) }, proc.root);
    try {
      const inWindow = sampler.sampleSome([PID]);
      expect(inWindow).toHaveLength(1);
      expect(inWindow[0]).toMatchObject({ pid: PID, name: 'sleep', argv: [], markers: {} });

      proc.write(PID, 'cmdline', 'sleep\u0000600\u0000');
      proc.write(PID, 'environ', 'CLAUDECODE=1\u0000PATH=/usr/bin\u0000');
      const after = sampler.sampleSome([PID]);
      expect(after[0]).toMatchObject({ argv: ['sleep', '600'], markers: { CLAUDECODE: '1' } });
    } finally {
      sampler.close();
    }
  });

  it('keeps a settled argv without reading it again', () => {
    const proc = procInExecWindow();
    proc.write(PID, 'cmdline', 'sleep\u0000600\u0000');
    const sampler = new LinuxSampler({ markerKeys: new Set() }, proc.root);
    try {
      expect(sampler.sampleSome([PID])[0]!.argv).toEqual(['sleep', '600']);
      // Changed behind the same name and start time: not read again, as for any process that did not exec.
      proc.write(PID, 'cmdline', 'other\u0000');
      expect(sampler.sampleSome([PID])[0]!.argv).toEqual(['sleep', '600']);
    } finally {
      sampler.close();
    }
  });
});
