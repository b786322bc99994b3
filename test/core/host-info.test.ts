// The host facts' parsers over text recorded from a real Debian 12 VM (proc(5), os-release(5)).
import { describe, expect, it } from 'vitest';
import { parseMeminfo, parseOsRelease, parseProcStatCpu } from '../../main/core/host/host-info';

describe('host facts from /proc and os-release', () => {
  it('reads busy and total jiffies from the first line of /proc/stat, iowait counted as idle', () => {
    const text =
      'cpu  746921 1505 327973 32722 723 0 1084 0 0 0\ncpu0 373460 752 163986 16361 361 0 542 0 0 0\n';
    const total = 746921 + 1505 + 327973 + 32722 + 723 + 0 + 1084 + 0;
    expect(parseProcStatCpu(text)).toEqual({ busy: total - 32722 - 723, total });
    expect(parseProcStatCpu('intr 1 2 3\n')).toBeNull();
  });

  it('reads MemTotal and MemAvailable in bytes, and refuses a meminfo without them', () => {
    const text = 'MemTotal:       24683620 kB\nMemFree:        18409640 kB\nMemAvailable:   22159340 kB\n';
    expect(parseMeminfo(text)).toEqual({ total: 24683620 * 1024, available: 22159340 * 1024 });
    expect(parseMeminfo('MemTotal:       24683620 kB\n')).toBeNull();
  });

  it('names the OS by PRETTY_NAME, else NAME and VERSION_ID', () => {
    expect(
      parseOsRelease(
        'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\n',
      ),
    ).toBe('Debian GNU/Linux 12 (bookworm)');
    expect(parseOsRelease("NAME='Alpine Linux'\nVERSION_ID=3.20.0\n")).toBe('Alpine Linux 3.20.0');
    expect(parseOsRelease('ID=unknown\n')).toBeNull();
  });
});
