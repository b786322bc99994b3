/**
 * Builds the binary buffers macOS hands back, field by field in header order with C's natural
 * alignment, independently of the offsets the decoders use. Layouts: xnu bsd/sys/proc_info.h
 * (proc_bsdinfo, proc_bsdshortinfo, proc_taskinfo), struct kinfo_proc as in golang.org/x/sys/unix
 * ztypes_darwin_arm64.go, and the KERN_PROCARGS2 layout that xnu's own darwintest
 * test_sysctl_kern_procargs_25397314 walks (int argc, exec path, NUL padding, argv, environment).
 */
type Field =
  | ['u32' | 'i32', number]
  | ['u64' | 'i64', number | bigint]
  | ['u8' | 'i8', number]
  | ['u16', number]
  | ['char', number, string | Uint8Array];

export function layout(fields: Field[]): Buffer {
  const sizeOf = (f: Field): number =>
    f[0] === 'char'
      ? f[1]
      : f[0] === 'u64' || f[0] === 'i64'
        ? 8
        : f[0] === 'u16'
          ? 2
          : f[0].endsWith('8')
            ? 1
            : 4;
  const alignOf = (f: Field): number => (f[0] === 'char' ? 1 : sizeOf(f));
  let size = 0;
  let maxAlign = 1;
  const offsets: number[] = [];
  for (const f of fields) {
    size = Math.ceil(size / alignOf(f)) * alignOf(f);
    offsets.push(size);
    size += sizeOf(f);
    maxAlign = Math.max(maxAlign, alignOf(f));
  }
  const buf = Buffer.alloc(Math.ceil(size / maxAlign) * maxAlign);
  fields.forEach((f, i) => {
    const at = offsets[i] as number;
    switch (f[0]) {
      case 'u32':
        buf.writeUInt32LE(f[1] >>> 0, at);
        break;
      case 'i32':
        buf.writeInt32LE(f[1], at);
        break;
      case 'u64':
        buf.writeBigUInt64LE(BigInt(f[1]), at);
        break;
      case 'i64':
        buf.writeBigInt64LE(BigInt(f[1]), at);
        break;
      case 'u16':
        buf.writeUInt16LE(f[1], at);
        break;
      case 'u8':
        buf.writeUInt8(f[1], at);
        break;
      case 'i8':
        buf.writeInt8(f[1], at);
        break;
      case 'char': {
        const bytes = typeof f[2] === 'string' ? Buffer.from(f[2], 'utf8') : Buffer.from(f[2]);
        bytes.subarray(0, f[1]).copy(buf, at);
        break;
      }
    }
  });
  return buf;
}

export interface BsdInfoFields {
  flags?: number;
  status: number;
  pid: number;
  ppid: number;
  uid: number;
  comm: string | Uint8Array;
  name?: string;
  pgid: number;
  tdev?: number;
  startSec: number;
  startUsec: number;
}

/** struct proc_bsdinfo (MAXCOMLEN = 16). */
export function bsdInfo(f: BsdInfoFields): Buffer {
  return layout([
    ['u32', f.flags ?? 0], // pbi_flags
    ['u32', f.status], // pbi_status
    ['u32', 0], // pbi_xstatus
    ['u32', f.pid], // pbi_pid
    ['u32', f.ppid], // pbi_ppid
    ['u32', f.uid], // pbi_uid
    ['u32', 20], // pbi_gid
    ['u32', f.uid], // pbi_ruid
    ['u32', 20], // pbi_rgid
    ['u32', f.uid], // pbi_svuid
    ['u32', 20], // pbi_svgid
    ['u32', 0], // rfu_1
    ['char', 16, f.comm], // pbi_comm[MAXCOMLEN]
    ['char', 32, f.name ?? ''], // pbi_name[2 * MAXCOMLEN]
    ['u32', 7], // pbi_nfiles
    ['u32', f.pgid], // pbi_pgid
    ['u32', 0], // pbi_pjobc
    ['u32', f.tdev ?? 0xffffffff], // e_tdev
    ['u32', 0], // e_tpgid
    ['i32', 0], // pbi_nice
    ['u64', f.startSec], // pbi_start_tvsec
    ['u64', f.startUsec], // pbi_start_tvusec
  ]);
}

export interface TaskInfoFields {
  residentBytes: number;
  userTicks: number;
  systemTicks: number;
  runningThreads: number;
}

/** struct proc_taskinfo. */
export function taskInfo(f: TaskInfoFields): Buffer {
  return layout([
    ['u64', f.residentBytes * 4], // pti_virtual_size
    ['u64', f.residentBytes], // pti_resident_size
    ['u64', f.userTicks], // pti_total_user
    ['u64', f.systemTicks], // pti_total_system
    ['u64', 0], // pti_threads_user
    ['u64', 0], // pti_threads_system
    ['i32', 1], // pti_policy
    ['i32', 1000], // pti_faults
    ['i32', 10], // pti_pageins
    ['i32', 5], // pti_cow_faults
    ['i32', 100], // pti_messages_sent
    ['i32', 100], // pti_messages_received
    ['i32', 200], // pti_syscalls_mach
    ['i32', 300], // pti_syscalls_unix
    ['i32', 400], // pti_csw
    ['i32', 12], // pti_threadnum
    ['i32', f.runningThreads], // pti_numrunning
    ['i32', 31], // pti_priority
  ]);
}

/** struct proc_bsdshortinfo. */
export function shortBsdInfo(f: Omit<BsdInfoFields, 'startSec' | 'startUsec' | 'name' | 'tdev'>): Buffer {
  return layout([
    ['u32', f.pid], // pbsi_pid
    ['u32', f.ppid], // pbsi_ppid
    ['u32', f.pgid], // pbsi_pgid
    ['u32', f.status], // pbsi_status
    ['char', 16, f.comm], // pbsi_comm[MAXCOMLEN]
    ['u32', f.flags ?? 0], // pbsi_flags
    ['u32', f.uid], // pbsi_uid
    ['u32', 0], // pbsi_gid
    ['u32', f.uid], // pbsi_ruid
    ['u32', 0], // pbsi_rgid
    ['u32', f.uid], // pbsi_svuid
    ['u32', 0], // pbsi_svgid
    ['u32', 0], // pbsi_rfu
  ]);
}

/** struct kinfo_proc (kp_proc then kp_eproc), only the extern_proc head filled; the rest is zero padding to 648 bytes. */
export function kinfoProc(f: { pid: number; stat: number; startSec: number; startUsec: number }): Buffer {
  const head = layout([
    ['i64', f.startSec], // p_starttime.tv_sec
    ['i32', f.startUsec], // p_starttime.tv_usec
    ['u64', 0], // p_vmspace
    ['u64', 0], // p_sigacts
    ['i32', 0], // p_flag
    ['i8', f.stat], // p_stat
    ['i32', f.pid], // p_pid
  ]);
  const buf = Buffer.alloc(648);
  head.copy(buf);
  return buf;
}

/** KERN_PROCARGS2 contents; an empty `env` is what the kernel returns when it hides a restricted process's environment. */
export function procArgs2(
  execPath: string,
  argv: (string | Uint8Array)[],
  env: string[],
  apple: string[] = [],
): Buffer {
  // Laid out as xnu's exec_extract_strings / exec_add_apple_strings build the string area (bsd/kern/
  // kern_exec.c): "executable_path=<path>\0" padded with NULs to pointer (8-byte) alignment, argv and
  // env strings, NULs to alignment again (none when already aligned), the apple strings, NULs to
  // alignment. sysctl_procargsx (kern_sysctl.c) puts int argc first and strips "executable_path=".
  const area: Buffer[] = [Buffer.from(`executable_path=${execPath}\0`)];
  const pad = (): void => {
    const used = area.reduce((n, b) => n + b.length, 0);
    area.push(Buffer.alloc((8 - (used % 8)) % 8));
  };
  pad();
  for (const a of argv) area.push(Buffer.from(a), Buffer.from([0]));
  for (const e of env) area.push(Buffer.from(`${e}\0`));
  pad();
  for (const s of apple) area.push(Buffer.from(`${s}\0`));
  if (apple.length > 0) pad();
  const argc = Buffer.alloc(4);
  argc.writeInt32LE(argv.length);
  return Buffer.concat([argc, Buffer.concat(area).subarray('executable_path='.length)]);
}

/**
 * struct rusage_info_v4 (xnu bsd/sys/resource.h): uuid[16] then 35 × uint64; the memory fields, and the
 * times (Mach absolute time units) when given.
 */
export function rusageInfoV4(f: {
  residentBytes: number;
  physFootprint: number;
  userTicks?: number;
  systemTicks?: number;
  runnableTicks?: number;
  childUserTicks?: number;
  childSystemTicks?: number;
}): Buffer {
  const u64s: Field[] = Array.from({ length: 35 }, () => ['u64', 0] as Field);
  u64s[0] = ['u64', f.userTicks ?? 0]; // ri_user_time
  u64s[1] = ['u64', f.systemTicks ?? 0]; // ri_system_time
  u64s[34] = ['u64', f.runnableTicks ?? 0]; // ri_runnable_time, the last of v4
  u64s[6] = ['u64', f.residentBytes]; // ri_resident_size
  u64s[7] = ['u64', f.physFootprint]; // ri_phys_footprint
  u64s[10] = ['u64', f.childUserTicks ?? 0]; // ri_child_user_time
  u64s[11] = ['u64', f.childSystemTicks ?? 0]; // ri_child_system_time
  return layout([['char', 16, new Uint8Array(16)], ...u64s]);
}

/** struct vinfo_stat (xnu bsd/sys/proc_info.h), zeroes but for the mode: 136 bytes. */
function vinfoStat(mode: number): Field[] {
  return [
    ['u32', 0x1000004], // vst_dev
    ['u16', mode], // vst_mode
    ['u16', 1], // vst_nlink
    ['u64', 42], // vst_ino
    ['u32', 501], // vst_uid
    ['u32', 20], // vst_gid
    ...Array.from({ length: 8 }, () => ['i64', 0] as Field), // atime … birthtimensec
    ['i64', 0], // vst_size
    ['i64', 0], // vst_blocks
    ['i32', 4096], // vst_blksize
    ['u32', 0], // vst_flags
    ['u32', 0], // vst_gen
    ['u32', 0], // vst_rdev
    ['i64', 0], // vst_qspare[0]
    ['i64', 0], // vst_qspare[1]
  ];
}

/** struct vnode_info_path: vnode_info (vinfo_stat, vi_type, vi_pad, fsid_t) then vip_path[MAXPATHLEN]. */
function vnodeInfoPath(path: string | Uint8Array): Field[] {
  return [
    ...vinfoStat(0o040755),
    ['i32', 2], // vi_type VDIR
    ['i32', 0], // vi_pad
    ['i32', 0x1000004], // vi_fsid.val[0]
    ['i32', 0x1a], // vi_fsid.val[1]
    ['char', 1024, path], // vip_path
  ];
}

/** struct proc_vnodepathinfo: pvi_cdir then pvi_rdir (the root directory, empty unless chrooted). */
export function vnodePathInfo(cwd: string | Uint8Array, root = ''): Buffer {
  return Buffer.concat([layout(vnodeInfoPath(cwd)), layout(vnodeInfoPath(root))]);
}

/** struct proc_fdinfo entries, as PROC_PIDLISTFDS writes them. */
export function fdList(entries: { fd: number; type: number }[]): Buffer {
  return Buffer.concat(
    entries.map((e) =>
      layout([
        ['i32', e.fd],
        ['u32', e.type],
      ]),
    ),
  );
}

export interface SocketFields {
  /** soi_kind: 1 SOCKINFO_IN, 2 SOCKINFO_TCP, 3 SOCKINFO_UN. */
  kind: number;
  /** soi_family: 2 AF_INET, 30 AF_INET6, 1 AF_UNIX. */
  family: number;
  /** soi_type: 1 SOCK_STREAM, 2 SOCK_DGRAM. */
  type: number;
  /** soi_protocol: 6 IPPROTO_TCP, 17 IPPROTO_UDP. */
  protocol: number;
  /** insi_vflag: INI_IPV4 1 | INI_IPV6 2. */
  vflag: number;
  localPort: number;
  foreignPort?: number;
  /** insi_laddr's 16 bytes (IPv4: 12 zero bytes then the address, struct in4in6_addr). */
  localAddress: number[];
  /** tcpsi_state, for SOCKINFO_TCP (1 TSI_S_LISTEN, 4 TSI_S_ESTABLISHED). */
  tcpState?: number;
}

/** A port as the inpcb keeps it (u_short in network byte order), widened to int on a little-endian Mac. */
function networkPort(port: number): number {
  return ((port & 0xff) << 8) | (port >> 8);
}

/**
 * struct socket_fdinfo (proc_fileinfo, then socket_info with its soi_proto union holding an
 * in_sockinfo, or a tcp_sockinfo that begins with one), zero-padded to the union's largest member
 * (un_sockinfo) as sizeof does. Fields as fill_socketinfo (xnu bsd/kern/socket_info.c) fills them.
 */
export function socketFdInfo(f: SocketFields): Buffer {
  const sockbuf: Field[] = [
    ['u32', 0], // sbi_cc
    ['u32', 131072], // sbi_hiwat
    ['u32', 0], // sbi_mbcnt
    ['u32', 0], // sbi_mbmax
    ['u32', 1], // sbi_lowat
    ['u16', 0], // sbi_flags (short)
    ['u16', 0], // sbi_timeo (short)
  ];
  const inSockinfo: Field[] = [
    ['i32', networkPort(f.foreignPort ?? 0)], // insi_fport
    ['i32', networkPort(f.localPort)], // insi_lport
    ['u64', 7], // insi_gencnt
    ['u32', 0], // insi_flags
    ['u32', 0], // insi_flow
    ['u8', f.vflag], // insi_vflag
    ['u8', 64], // insi_ip_ttl
    ['u32', 0], // rfu_1
    ['char', 16, new Uint8Array(16)], // insi_faddr
    ['char', 16, Uint8Array.from(f.localAddress)], // insi_laddr
    ['u8', 0], // insi_v4.in4_tos
    ['char', 3, new Uint8Array(3)], // padding: insi_v6 is a struct aligned to its int
    ['u8', 0], // insi_v6.in6_hlim
    ['i32', 0], // insi_v6.in6_cksum
    ['u16', 0], // insi_v6.in6_ifindex
    ['u16', 0], // insi_v6.in6_hops
  ];
  const tcp: Field[] =
    f.kind === 2
      ? [
          ['i32', f.tcpState ?? 0], // tcpsi_state
          ['i32', 0], // tcpsi_timer[0..3]
          ['i32', 0],
          ['i32', 0],
          ['i32', 0],
          ['i32', 1460], // tcpsi_mss
          ['u32', 0], // tcpsi_flags
          ['u32', 0], // rfu_1
          ['u64', 0], // tcpsi_tp
        ]
      : [];
  const head = layout([
    // struct proc_fileinfo
    ['u32', 0x3], // fi_openflags FREAD | FWRITE
    ['u32', 0], // fi_status
    ['i64', 0], // fi_offset
    ['i32', 0], // fi_type
    ['u32', 0], // fi_guardflags
    // struct socket_info
    ...vinfoStat(0o140666),
    ['u64', 0x1234], // soi_so
    ['u64', 0x5678], // soi_pcb
    ['i32', f.type], // soi_type
    ['i32', f.protocol], // soi_protocol
    ['i32', f.family], // soi_family
    ['u16', 0], // soi_options
    ['u16', 0], // soi_linger
    ['u16', 0], // soi_state
    ['u16', 0], // soi_qlen
    ['u16', 0], // soi_incqlen
    ['u16', 128], // soi_qlimit
    ['u16', 0], // soi_timeo
    ['u16', 0], // soi_error
    ['u32', 0], // soi_oobmark
    ...sockbuf, // soi_rcv
    ...sockbuf, // soi_snd
    ['i32', f.kind], // soi_kind
    ['u32', 0], // rfu_1
    ...(f.kind === 1 || f.kind === 2 ? [...inSockinfo, ...tcp] : []),
  ]);
  // soi_proto is a union as large as un_sockinfo: 2 × uint64 + 2 × SOCK_MAXADDRLEN (255), 8-aligned: 528.
  const size = 24 + 240 + Math.ceil((16 + 2 * 255) / 8) * 8;
  const buf = Buffer.alloc(size);
  head.copy(buf);
  return buf;
}

/** 127.0.0.1 as insi_laddr holds it: struct in4in6_addr, 12 zero bytes of padding then the address. */
export const IN4_LOOPBACK = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 127, 0, 0, 1];
export const IN6_ANY = Array.from({ length: 16 }, () => 0);
export const IN6_LOOPBACK = [...Array.from({ length: 15 }, () => 0), 1];

/**
 * What proc_pidinfo and sysctl(KERN_PROC_PID) answer for one process: its task-all, BSD and short BSD
 * infos and its kinfo_proc, all built from the same fields (add argv, rusage, cwd or fds beside them).
 */
export function processInfos(
  fields: BsdInfoFields,
  task: TaskInfoFields,
): { taskAllInfo: Buffer; bsdInfo: Buffer; shortBsdInfo: Buffer; kinfoProc: Buffer } {
  const bsd = bsdInfo(fields);
  return {
    taskAllInfo: Buffer.concat([bsd, taskInfo(task)]),
    bsdInfo: bsd,
    shortBsdInfo: shortBsdInfo(fields),
    kinfoProc: kinfoProc({
      pid: fields.pid,
      stat: fields.status,
      startSec: fields.startSec,
      startUsec: fields.startUsec,
    }),
  };
}
