/**
 * The numbers xnu and libproc use that the stand-in answers with: errnos (bsd/sys/errno.h), kqueue notes
 * (bsd/sys/event.h), proc_info flavors and their struct sizes (bsd/sys/proc_info.h), SZOMB
 * (bsd/sys/proc.h) and ARG_MAX (bsd/sys/syslimits.h).
 */
export const EPERM = 1;
export const ESRCH = 3;
export const ENOMEM = 12;
export const EBADF = 9;
export const EINVAL = 22;
/** ENOTSUP on macOS (bsd/sys/errno.h). */
export const ENOTSUP = 45;
export const NOTE_EXIT = 0x80000000;
export const NOTE_FORK = 0x40000000;
export const NOTE_TRACK = 0x00000001;
export const NOTE_TRACKERR = 0x00000002;
export const NOTE_CHILD = 0x00000004;
/** ENOTSOCK on macOS (bsd/sys/errno.h). */
export const ENOTSOCK = 38;

/** ARG_MAX (xnu bsd/sys/syslimits.h), what kern.argmax reports on macOS. */
export const XNU_ARG_MAX = 1024 * 1024;

export const PROC_PIDTASKALLINFO = 2;
export const PROC_PIDTBSDINFO = 3;
export const PROC_PIDT_SHORTBSDINFO = 13;
export const PROC_PIDLISTFDS = 1;
export const PROC_PIDVNODEPATHINFO = 9;
export const PROC_FDINFO_SIZE = 8;
export const FLAVOR_SIZE = new Map([
  [PROC_PIDLISTFDS, PROC_FDINFO_SIZE],
  [PROC_PIDTASKALLINFO, 232],
  [PROC_PIDTBSDINFO, 136],
  [PROC_PIDVNODEPATHINFO, 2352],
  [PROC_PIDT_SHORTBSDINFO, 64],
]);
export const PROC_PIDFDSOCKETINFO = 3;
export const SOCKET_FDINFO_SIZE = 792;
export const PROX_FDTYPE_SOCKET = 2;
export const SZOMB = 5;
export const RUSAGE_INFO_V4 = 4;
export const RUSAGE_INFO_V4_SIZE = 296;
