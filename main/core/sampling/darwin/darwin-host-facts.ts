import type { LibSystem } from './libsystem';
import { machTicksToMs, ticksToMsAtFrequency } from './proc-info-decoders';
import { CTL_KERN, KERN_ARGMAX } from './proc-info-layout';

/** ARG_MAX in xnu bsd/sys/syslimits.h, which kern.argmax reports on macOS. */
const DEFAULT_ARGMAX = 1024 * 1024;

export function readArgMax(lib: LibSystem): number {
  const buf = Buffer.alloc(4);
  const n = lib.sysctl(Int32Array.of(CTL_KERN, KERN_ARGMAX), buf);
  const argmax = n === 4 ? buf.readInt32LE(0) : 0;
  return argmax > 0 ? argmax : DEFAULT_ARGMAX;
}

/**
 * Mach ticks → ms from hw.tbfrequency (xnu bsd/kern/kern_mib.c sysctl_tbfrequency, a 64-bit value):
 * under Rosetta mach_timebase_info answers 1/1 while proc_pidinfo counts the native 24 MHz ticks,
 * which would read CPU 41.7× too low. mach_timebase_info only when the sysctl is missing.
 */
export function tickConverter(lib: LibSystem): (ticks: number) => number {
  const buf = Buffer.alloc(8);
  if (lib.sysctlByName('hw.tbfrequency', buf) === 8) {
    const hz = Number(buf.readBigUInt64LE(0));
    if (hz > 0) return (ticks) => ticksToMsAtFrequency(ticks, hz);
  }
  const { numer, denom } = lib.timebase();
  return (ticks) => machTicksToMs(ticks, numer, denom);
}
