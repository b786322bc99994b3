import { readFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  kernel: string;
  node: string;
  totalMemBytes: number;
  /** PID 1's name: `tini` when the bench runs in its own PID namespace as documented. */
  pid1: string;
}

export function machineInfo(): MachineInfo {
  let pid1 = '?';
  try {
    pid1 = readFileSync('/proc/1/comm', 'utf8').trim();
  } catch {
    // Unreadable: leave it unknown.
  }
  return {
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    kernel: release(),
    node: process.version,
    totalMemBytes: totalmem(),
    pid1,
  };
}
