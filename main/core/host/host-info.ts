import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, freemem, hostname, loadavg, totalmem } from 'node:os';
import type { HostInfo } from '../../../shared/model';

const REFRESH_MS = 5000;

/** What the service asks of host facts: the latest ones, refreshed only when someone asks. */
export interface HostFacts {
  current(): HostInfo;
  /** Reads the system now (current() reads it only when its facts are older than 5 s). */
  refresh?(): void;
}

/** CPU time counters: busy and total, in whatever unit the platform counts (only deltas are used). */
interface CpuTimes {
  busy: number;
  total: number;
}

/** The first line of /proc/stat (proc(5)): user nice system idle iowait irq softirq steal ... */
export function parseProcStatCpu(text: string): CpuTimes | null {
  const line = text.slice(0, text.indexOf('\n'));
  if (!line.startsWith('cpu ')) return null;
  const v = line.slice(4).trim().split(/\s+/).map(Number);
  // guest and guest_nice (fields 9 and 10) are already counted in user and nice.
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  return Number.isFinite(total) ? { busy: total - idle, total } : null;
}

/** MemTotal and MemAvailable of /proc/meminfo (kB), in bytes. */
export function parseMeminfo(text: string): { total: number; available: number } | null {
  const kb = (key: string): number | null => {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text);
    return m ? Number(m[1]) * 1024 : null;
  };
  const total = kb('MemTotal');
  const available = kb('MemAvailable');
  return total !== null && available !== null ? { total, available } : null;
}

/** PRETTY_NAME of os-release(5), else NAME and VERSION_ID. */
export function parseOsRelease(text: string): string | null {
  const value = (key: string): string | null => {
    const m = new RegExp(`^${key}=(.*)$`, 'm').exec(text);
    return m ? m[1]!.trim().replace(/^(["'])(.*)\1$/, '$2') : null;
  };
  return value('PRETTY_NAME') ?? ([value('NAME'), value('VERSION_ID')].filter(Boolean).join(' ') || null);
}

function readCpuTimes(): CpuTimes | null {
  if (process.platform === 'linux') return parseProcStatCpu(readFileSync('/proc/stat', 'latin1'));
  // macOS: host_processor_info through libuv, no process spawned.
  let busy = 0;
  let total = 0;
  for (const { times } of cpus()) {
    busy += times.user + times.nice + times.sys + times.irq;
    total += times.user + times.nice + times.sys + times.irq + times.idle;
  }
  return { busy, total };
}

function readMemory(): { total: number; available: number } | null {
  if (process.platform === 'linux') return parseMeminfo(readFileSync('/proc/meminfo', 'latin1'));
  return { total: totalmem(), available: freemem() };
}

/**
 * The host facts for the header and reports, read directly: /proc/stat deltas, /proc/meminfo and
 * os-release on Linux; libuv's counters and one `sysctl` at start on macOS. Never a process on a
 * timer: facts are refreshed at most every 5 s, and only when `current()` is called, which the service
 * does only while someone looks. The OS name is read once.
 */
export class HostInfoSource implements HostFacts {
  private info: HostInfo;
  private refreshedAt = 0;
  private lastCpu: CpuTimes | null = null;
  private osName: string | null = null;
  /** How many times the system was read (for tests and the bench). */
  reads = 0;

  constructor() {
    this.info = {
      hostname: hostname(),
      platform: process.platform,
      cpuCount: cpus().length,
      loadAverage: [0, 0, 0],
      totalMemBytes: 0,
      freeMemBytes: 0,
    };
    this.readOsNameOnce();
  }

  /** The latest facts; reads the system first when they are older than 5 s. */
  current(): HostInfo {
    if (Date.now() - this.refreshedAt > REFRESH_MS) this.refresh();
    return this.info;
  }

  refresh(): void {
    this.refreshedAt = Date.now();
    this.reads++;
    try {
      const cpu = readCpuTimes();
      const mem = readMemory();
      const [one, five, fifteen] = loadavg();
      const prev = this.lastCpu;
      this.lastCpu = cpu;
      const span = cpu && prev ? cpu.total - prev.total : 0;
      const load = cpu && prev && span > 0 ? ((cpu.busy - prev.busy) / span) * 100 : null;
      this.info = {
        ...this.info,
        loadAverage: [one ?? 0, five ?? 0, fifteen ?? 0],
        ...(load !== null ? { cpuLoadPercent: Math.round(load * 10) / 10 } : {}),
        ...(mem ? { totalMemBytes: mem.total, freeMemBytes: mem.available } : {}),
        ...(this.osName ? { os: this.osName } : {}),
      };
    } catch {
      // Host facts are decoration: keep the last ones.
    }
  }

  private readOsNameOnce(): void {
    if (process.platform === 'linux') {
      for (const file of ['/etc/os-release', '/usr/lib/os-release']) {
        try {
          this.osName = parseOsRelease(readFileSync(file, 'utf8'));
          return;
        } catch {
          // Try the next one (os-release(5) names both).
        }
      }
      return;
    }
    if (process.platform === 'darwin') {
      // Once, at start: the product version does not change while we run.
      execFile('/usr/sbin/sysctl', ['-n', 'kern.osproductversion'], (err, stdout) => {
        if (!err && stdout.trim()) this.osName = `macOS ${stdout.trim()}`;
      });
    }
  }
}
