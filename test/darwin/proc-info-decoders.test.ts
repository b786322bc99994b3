import { describe, expect, it } from 'vitest';
import {
  decodeBsdInfo,
  decodeKinfoStartMicros,
  decodePhysFootprint,
  decodeShortBsdInfo,
  decodeTaskInfo,
  machTicksToMs,
  stateLetter,
} from '../../main/core/sampling/darwin/proc-info-decoders';
import { RUSAGE_INFO, RUSAGE_INFO_V4_SIZE } from '../../main/core/sampling/darwin/proc-info-layout';
import { bsdInfo, kinfoProc, rusageInfoV4, shortBsdInfo, taskInfo } from './darwin-buffers';
import { parsePsAux, recordedLines } from './recorded-ps';

// The Code Helper recorded in microsoft/vscode#12144 (see the fixture), rebuilt as the kernel reports it.
const helper = parsePsAux(recordedLines('ps-aux-vscode-12144.txt')[1] as string);

describe('decodeBsdInfo (struct proc_bsdinfo)', () => {
  it('reads every field Corral uses from a buffer laid out as the header declares', () => {
    const buf = bsdInfo({
      flags: 0x20 | 0x10,
      status: 2,
      pid: helper.pid,
      ppid: 63704,
      uid: 501,
      comm: 'Code - Insiders ',
      name: 'Code - Insiders Helper',
      pgid: 63704,
      tdev: 0x10000003,
      startSec: 1474794900,
      startUsec: 123456,
    });
    expect(buf.length).toBe(136);
    expect(decodeBsdInfo(buf)).toEqual({
      pid: 64122,
      ppid: 63704,
      pgid: 63704,
      uid: 501,
      status: 2,
      flags: 0x30,
      name: 'Code - Insiders Helper',
      ttyDev: 0x10000003,
      startMicros: 1474794900123456,
    });
  });

  it('falls back to pbi_comm, which the kernel may fill all 16 bytes of without a NUL', () => {
    const buf = bsdInfo({
      status: 2,
      pid: 1,
      ppid: 0,
      uid: 0,
      comm: 'Code Helper (Renderer)',
      pgid: 1,
      startSec: 1,
      startUsec: 0,
    });
    expect(decodeBsdInfo(buf)?.name).toBe('Code Helper (Ren');
  });

  it('reports no terminal for NODEV', () => {
    const buf = bsdInfo({
      status: 2,
      pid: 1,
      ppid: 0,
      uid: 0,
      comm: 'launchd',
      pgid: 1,
      startSec: 1,
      startUsec: 0,
    });
    expect(decodeBsdInfo(buf)?.ttyDev).toBeNull();
  });

  it('escapes bytes that are not UTF-8 in names', () => {
    const comm = Uint8Array.from([0x63, 0x61, 0x66, 0xe9]);
    const buf = bsdInfo({ status: 2, pid: 9, ppid: 1, uid: 501, comm, pgid: 9, startSec: 1, startUsec: 0 });
    expect(decodeBsdInfo(buf)?.name).toBe('caf\\xe9');
  });

  it('refuses a short buffer', () => {
    expect(decodeBsdInfo(Buffer.alloc(100))).toBeNull();
  });
});

describe('decodeTaskInfo (struct proc_taskinfo)', () => {
  it('reads resident size, CPU ticks and running threads', () => {
    const buf = taskInfo({
      residentBytes: helper.rssKiB * 1024,
      userTicks: 4000,
      systemTicks: 393,
      runningThreads: 2,
    });
    expect(buf.length).toBe(96);
    expect(decodeTaskInfo(buf)).toEqual({
      residentBytes: 266108 * 1024,
      cpuMachTicks: 4393,
      runningThreads: 2,
    });
  });

  it('reads the task half of proc_taskallinfo at offset 136', () => {
    const all = Buffer.concat([
      bsdInfo({ status: 2, pid: 1, ppid: 0, uid: 0, comm: 'x', pgid: 1, startSec: 1, startUsec: 0 }),
      taskInfo({ residentBytes: 4096, userTicks: 1, systemTicks: 2, runningThreads: 0 }),
    ]);
    expect(decodeTaskInfo(all, 136)).toEqual({ residentBytes: 4096, cpuMachTicks: 3, runningThreads: 0 });
  });
});

describe('machTicksToMs', () => {
  it("turns the recorded helper's CPU time back into ms on Intel (1/1) and Apple silicon (125/3)", () => {
    expect(helper.cpuMs).toBe(183_050);
    expect(machTicksToMs(183_050 * 1_000_000, 1, 1)).toBe(183_050);
    // 24 MHz Mach clock: 183.05 s = 4_393_200_000 ticks.
    expect(machTicksToMs(4_393_200_000, 125, 3)).toBeCloseTo(183_050, 6);
  });
});

describe('decodeShortBsdInfo (struct proc_bsdshortinfo)', () => {
  it('reads identity fields and has no start time or terminal', () => {
    const buf = shortBsdInfo({
      pid: 88,
      ppid: 1,
      pgid: 88,
      status: 2,
      comm: 'WindowServer',
      uid: 88,
      flags: 0x20,
    });
    expect(buf.length).toBe(64);
    expect(decodeShortBsdInfo(buf)).toEqual({
      pid: 88,
      ppid: 1,
      pgid: 88,
      uid: 88,
      status: 2,
      flags: 0x20,
      name: 'WindowServer',
      ttyDev: null,
      startMicros: null,
    });
  });
});

describe('decodeKinfoStartMicros (struct kinfo_proc)', () => {
  it('reads p_starttime of the asked pid', () => {
    const buf = kinfoProc({ pid: 88, stat: 2, startSec: 1700000000, startUsec: 999999 });
    expect(decodeKinfoStartMicros(buf, 88)).toBe(1700000000999999);
  });

  it('refuses another pid or a short buffer', () => {
    const buf = kinfoProc({ pid: 88, stat: 2, startSec: 1, startUsec: 0 });
    expect(decodeKinfoStartMicros(buf, 89)).toBeNull();
    expect(decodeKinfoStartMicros(buf.subarray(0, 100), 88)).toBeNull();
  });
});

describe('stateLetter', () => {
  it.each([
    [5, 0, 'Z'],
    [5, null, 'Z'],
    [4, 0, 'T'],
    [2, 3, 'R'],
    [2, 0, 'S'],
    [1, 1, 'R'],
    [3, null, 'S'],
    [2, null, '?'],
    [9, 0, '?'],
  ])('status %i with %s running threads is %s', (status, running, letter) => {
    expect(stateLetter(status, running)).toBe(letter);
  });
});

describe('struct rusage_info_v4 (xnu bsd/sys/resource.h)', () => {
  // The header's members in order: ri_uuid[16], then 35 uint64_t.
  const u64Fields = [
    'ri_user_time',
    'ri_system_time',
    'ri_pkg_idle_wkups',
    'ri_interrupt_wkups',
    'ri_pageins',
    'ri_wired_size',
    'ri_resident_size',
    'ri_phys_footprint',
    'ri_proc_start_abstime',
    'ri_proc_exit_abstime',
    'ri_child_user_time',
    'ri_child_system_time',
    'ri_child_pkg_idle_wkups',
    'ri_child_interrupt_wkups',
    'ri_child_pageins',
    'ri_child_elapsed_abstime',
    'ri_diskio_bytesread',
    'ri_diskio_byteswritten',
    'ri_cpu_time_qos_default',
    'ri_cpu_time_qos_maintenance',
    'ri_cpu_time_qos_background',
    'ri_cpu_time_qos_utility',
    'ri_cpu_time_qos_legacy',
    'ri_cpu_time_qos_user_initiated',
    'ri_cpu_time_qos_user_interactive',
    'ri_billed_system_time',
    'ri_serviced_system_time',
    'ri_logical_writes',
    'ri_lifetime_max_phys_footprint',
    'ri_instructions',
    'ri_cycles',
    'ri_billed_energy',
    'ri_serviced_energy',
    'ri_interval_max_phys_footprint',
    'ri_runnable_time',
  ];
  const offsetOf = (name: string): number => 16 + 8 * u64Fields.indexOf(name);

  it('is 296 bytes, with the resident size and footprint where the layout reads them', () => {
    expect(u64Fields).toHaveLength(35);
    expect(RUSAGE_INFO_V4_SIZE).toBe(16 + 35 * 8);
    expect(RUSAGE_INFO_V4_SIZE).toBe(296);
    expect(RUSAGE_INFO.residentSize).toBe(offsetOf('ri_resident_size'));
    expect(RUSAGE_INFO.physFootprint).toBe(offsetOf('ri_phys_footprint'));
    const buf = rusageInfoV4({ residentBytes: 1 << 20, physFootprint: 3 << 20 });
    expect(buf.length).toBe(296);
    expect(decodePhysFootprint(buf)).toBe(3 << 20);
  });
});
