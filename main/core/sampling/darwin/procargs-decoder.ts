import { decodeName } from '../linux/stat-parser';

export interface ProcArgs {
  argv: string[];
  markers: Record<string, string>;
  /** True when at least one environment string followed argv (see decodeProcArgs2). */
  environReadable: boolean;
}

/**
 * The keys of the "apple" strings xnu puts after the environment (bsd/kern/kern_exec.c
 * exec_add_apple_strings; applev[0], executable_path=, is the path at the front of the buffer).
 */
const APPLE_KEYS = [
  'pfz=',
  'stack_guard=',
  'malloc_entropy=',
  'ptr_munge=',
  'MallocNanoZone=',
  'MallocExperiment=',
  'HardenedRuntime=',
  'main_stack=',
  'executable_file=',
  'dyld_file=',
  'executable_cdhash=',
  'dyld_flags=',
  'subsystem_root_path=',
  'executable_boothash=',
  'th_port=',
  'arm64e_abi=',
  'vm_force_4k_pages=',
].map((key) => Buffer.from(key, 'latin1'));

/**
 * The kernel aligns the end of argv + environment to a pointer (8 bytes; macOS runs no 32-bit process)
 * counted from the start of its string area, which the buffer shows 16 bytes in ("executable_path="
 * stripped by kern_sysctl.c sysctl_procargsx) after the 4-byte argc.
 */
const isAppleStringStart = (buf: Uint8Array, pos: number, end: number): boolean =>
  (pos - 4 + 16) % 8 === 0 &&
  APPLE_KEYS.some((key) => end - pos >= key.length && key.every((byte, i) => buf[pos + i] === byte));

/**
 * Decodes the buffer sysctl({CTL_KERN, KERN_PROCARGS2, pid}) fills: a native-endian int argc, the
 * executable path, NUL padding, argc NUL-terminated argv strings, then the environment strings. The
 * kernel's "apple" strings follow the environment after alignment padding only (kern_exec.c
 * exec_extract_strings), which is no byte at all when the environment ends aligned: the environment
 * ends at an empty string or at an aligned apple string, whichever comes first.
 *
 * The kernel leaves the environment out for some processes (CS_RESTRICT, hardened ones), which looks
 * exactly like an empty environment; so an environment counts as read only when it has an entry.
 * The padding skip also swallows empty leading argv strings, as it does for ps(1).
 * Returns null when the buffer does not have that shape.
 */
export function decodeProcArgs2(
  buf: Uint8Array,
  length: number,
  markerKeys: ReadonlySet<string>,
): ProcArgs | null {
  if (length < 4 || length > buf.length) return null;
  const argc = new DataView(buf.buffer, buf.byteOffset, length).getInt32(0, true);
  if (argc < 0 || argc > length) return null;

  let pos = skipString(buf, 4, length);
  while (pos < length && buf[pos] === 0) pos++;

  const argv: string[] = [];
  while (argv.length < argc && pos < length) {
    const end = stringEnd(buf, pos, length);
    argv.push(decodeName(buf.subarray(pos, end)));
    pos = end + 1;
  }

  const markers: Record<string, string> = {};
  let envCount = 0;
  while (pos < length && buf[pos] !== 0) {
    const end = stringEnd(buf, pos, length);
    if (isAppleStringStart(buf, pos, end)) break;
    envCount++;
    if (markerKeys.size > 0) {
      const eq = buf.indexOf(0x3d, pos);
      if (eq > pos && eq < end) {
        const key = decodeName(buf.subarray(pos, eq));
        if (markerKeys.has(key)) markers[key] = decodeName(buf.subarray(eq + 1, end));
      }
    }
    pos = end + 1;
  }
  return { argv, markers, environReadable: envCount > 0 };
}

function stringEnd(buf: Uint8Array, start: number, length: number): number {
  const nul = buf.indexOf(0, start);
  return nul === -1 || nul > length ? length : nul;
}

function skipString(buf: Uint8Array, start: number, length: number): number {
  return Math.min(length, stringEnd(buf, start, length) + 1);
}
