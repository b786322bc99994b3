import { describe, expect, it } from 'vitest';
import { keepsStatistics } from '../../main/core/sampling/linux/schedstat-probe';

// fs/proc/base.c, proc_pid_schedstat: "0 0 0\n" for every task when !sched_info_on(), otherwise
// "<sum_exec_runtime> <run_delay> <pcount>\n".
describe('keepsStatistics: whether schedstat says anything', () => {
  it('takes a line with figures', () => {
    expect(keepsStatistics('1026688621 305415351 705\n')).toBe(true);
    expect(keepsStatistics('0 12 0\n')).toBe(true);
  });

  it('refuses the zeros the kernel writes when it keeps no statistics, and anything malformed', () => {
    expect(keepsStatistics('0 0 0\n')).toBe(false);
    expect(keepsStatistics('')).toBe(false);
    expect(keepsStatistics('12\n')).toBe(false);
  });
});
