import type { ProcessRecord } from '../../main/core/model/process-record';
import type { ProcessSampler } from '../../main/core/sampling/process-sampler';

/**
 * A process table made up in memory: one agent (comm `claude`) with `toolCalls` tool-call groups of
 * `perGroup` processes each (a `bash -c` wrapper and its children, carrying the agent's markers).
 * Each `advance(ms)` moves the clock: every process burns a little CPU, at its own steady rate.
 */
export class SyntheticSampler implements ProcessSampler {
  readonly platform = 'linux' as const;
  private readonly base: ProcessRecord[] = [];
  private readonly cpu: Float64Array;
  private readonly rates: Float64Array;

  constructor(toolCalls: number, perGroup: number, startedAt: number) {
    const markers = { CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: 'bench' };
    const record = (
      pid: number,
      ppid: number,
      pgid: number,
      name: string,
      argv: string[],
      m: Record<string, string>,
    ): ProcessRecord => ({
      pid,
      ppid,
      pgid,
      sid: pgid,
      uid: 1000,
      state: 'S',
      startKey: 1000 + pid,
      startedAt,
      cpuTimeMs: 0,
      rssBytes: 50 << 20,
      name,
      argv,
      tty: null,
      markers: m,
      environReadable: true,
    });
    this.base.push(record(100, 1, 100, 'claude', ['claude'], {}));
    for (let g = 0; g < toolCalls; g++) {
      const leader = 1000 + g * (perGroup + 1);
      this.base.push(record(leader, 100, leader, 'bash', ['/bin/bash', '-c', `npm run task-${g}`], markers));
      for (let k = 1; k < perGroup; k++) {
        this.base.push(record(leader + k, leader, leader, 'node', ['node', `worker-${g}-${k}.js`], markers));
      }
    }
    this.cpu = new Float64Array(this.base.length);
    // 0.1 % to 3 % of a core: varied history, far below the runaway threshold.
    this.rates = Float64Array.from(this.base, (_, i) => 1 + (i % 30));
  }

  get size(): number {
    return this.base.length;
  }

  advance(ms: number): void {
    for (let i = 0; i < this.cpu.length; i++) this.cpu[i]! += (this.rates[i]! * ms) / 1000;
  }

  sampleAll(): ProcessRecord[] {
    return this.base.map((r, i) => ({ ...r, cpuTimeMs: Math.floor(this.cpu[i]!) }));
  }

  sampleSome(pids: Iterable<number>): ProcessRecord[] {
    const want = new Set(pids);
    const out: ProcessRecord[] = [];
    this.base.forEach((r, i) => {
      if (want.has(r.pid)) out.push({ ...r, cpuTimeMs: Math.floor(this.cpu[i]!) });
    });
    return out;
  }

  listPids(): number[] {
    return this.base.map((r) => r.pid);
  }
}
