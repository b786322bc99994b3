import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module script without types
import { appProcesses, cpuBetween, parseFootprint, parsePsTime } from '../../scripts/mac-cost.mjs';

const APP = '/Users/runner/work/corral/corral/dist/mac-arm64/Corral.app';

// `ps -axo pid=,time=,rss=,command=` as macOS prints it (cputime as [dd-][hh:]mm:ss.cc), laid out by hand.
const psBefore = [
  `  612   0:01.52 152320 ${APP}/Contents/MacOS/Corral`,
  `  618   0:00.31  61440 ${APP}/Contents/Frameworks/Corral Helper (GPU).app/Contents/MacOS/Corral Helper (GPU) --type=gpu-process`,
  `  619   0:00.12  40960 ${APP}/Contents/Frameworks/Corral Helper.app/Contents/MacOS/Corral Helper --type=utility`,
  '    1  12:03.77  20480 /sbin/launchd',
  `  700   0:09.00  10240 /Applications/Other.app/Contents/MacOS/Other ${APP}/Contents/MacOS/Corral`,
].join('\n');
const psAfter = [
  `  612   0:02.02 153600 ${APP}/Contents/MacOS/Corral`,
  `  618   0:00.41  61440 ${APP}/Contents/Frameworks/Corral Helper (GPU).app/Contents/MacOS/Corral Helper (GPU) --type=gpu-process`,
  `  640   0:00.05  30720 ${APP}/Contents/Frameworks/Corral Helper (Renderer).app/Contents/MacOS/Corral Helper (Renderer) --type=renderer`,
  '    1  12:04.01  20480 /sbin/launchd',
].join('\n');

describe('scripts/mac-cost.mjs', () => {
  it('reads ps cputime in each of its shapes', () => {
    expect(parsePsTime('0:01.52')).toBeCloseTo(1.52);
    expect(parsePsTime('12:03.77')).toBeCloseTo(723.77);
    expect(parsePsTime('1:02:03.50')).toBeCloseTo(3723.5);
    expect(parsePsTime('2-01:00:00.00')).toBe(176400);
    expect(parsePsTime('n/a')).toBeNull();
  });

  it('counts only processes inside the bundle, and the CPU each used in the window', () => {
    const before = appProcesses(psBefore, APP);
    expect(before.map((p: { pid: number }) => p.pid)).toEqual([612, 618, 619]);
    const after = appProcesses(psAfter, `${APP}/`);
    // 612: +0.50, 618: +0.10, 640 (new): +0.05; 619 exited and is not counted.
    expect(cpuBetween(before, after)).toBeCloseTo(0.65);
  });

  it('started by a relative path (as CI starts it), the helpers by their absolute path still count', () => {
    const cwd = '/Users/runner/work/corral/corral';
    const relative = 'dist/mac-arm64/Corral.app';
    const ps = [
      `  612   0:01.52 152320 ${relative}/Contents/MacOS/Corral`,
      `  618   0:00.31  61440 ${APP}/Contents/Frameworks/Corral Helper (GPU).app/Contents/MacOS/Corral Helper (GPU) --type=gpu-process`,
      `  700   0:09.00  10240 /Applications/Other.app/Contents/MacOS/Other`,
    ].join('\n');
    expect(appProcesses(ps, relative, cwd).map((p: { pid: number }) => p.pid)).toEqual([612, 618]);
  });

  it('reads the footprint tool’s summary in its units', () => {
    expect(parseFootprint('Corral [612]: 64-bit    Footprint: 87 MB (16384 bytes per page)')).toBe(
      87 * 1024 ** 2,
    );
    expect(parseFootprint('phys_footprint: 1.5 GB')).toBe(Math.round(1.5 * 1024 ** 3));
    expect(parseFootprint('nothing here')).toBeNull();
  });
});
