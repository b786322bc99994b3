import { cpus, hostname, loadavg } from 'node:os';
import si from 'systeminformation';
import type { HostInfo } from '../../../shared/model';

const REFRESH_MS = 5000;

/**
 * The host facts for the header and reports, from systeminformation (CPU load, memory, OS): what it is
 * good at. Refreshed in the background at most every 5 s, and only while someone asks for them.
 */
export class HostInfoSource {
  private info: HostInfo;
  private refreshedAt = 0;
  private refreshing = false;
  private osName: string | null = null;

  constructor() {
    const [one, five, fifteen] = loadavg();
    this.info = {
      hostname: hostname(),
      platform: process.platform,
      cpuCount: cpus().length,
      loadAverage: [one ?? 0, five ?? 0, fifteen ?? 0],
      totalMemBytes: 0,
      freeMemBytes: 0,
    };
  }

  /** The latest facts; starts a refresh when they are older than 5 s. */
  current(): HostInfo {
    if (Date.now() - this.refreshedAt > REFRESH_MS && !this.refreshing) void this.refresh();
    return this.info;
  }

  async refresh(): Promise<void> {
    this.refreshing = true;
    try {
      const [load, mem, os] = await Promise.all([
        si.currentLoad(),
        si.mem(),
        this.osName ? Promise.resolve(null) : si.osInfo(),
      ]);
      if (os) this.osName = `${os.distro} ${os.release}`.trim();
      const [one, five, fifteen] = loadavg();
      this.info = {
        ...this.info,
        loadAverage: [one ?? 0, five ?? 0, fifteen ?? 0],
        cpuLoadPercent: Math.round(load.currentLoad * 10) / 10,
        totalMemBytes: mem.total,
        freeMemBytes: mem.available,
        ...(this.osName ? { os: this.osName } : {}),
      };
      this.refreshedAt = Date.now();
    } catch {
      // Host facts are decoration: keep the last ones.
    } finally {
      this.refreshing = false;
    }
  }
}
