import type { ListeningPort } from '../../../../shared/model';
import { distinctPorts } from '../linux/listening-ports';
import type { LibSystem } from './libsystem';
import { decodeCwd, decodeListeningSocket, decodeSocketFds } from './proc-info-decoders';
import {
  PROC_FDINFO_SIZE,
  PROC_PIDFDSOCKETINFO,
  PROC_PIDLISTFDS,
  PROC_PIDVNODEPATHINFO,
  SOCKET_FDINFO_SIZE,
  VNODEPATHINFO_SIZE,
} from './proc-info-layout';

/**
 * What the monitor reads of an agent's processes beyond the process table on macOS: working
 * directories and listening sockets. `denied` says which pids the kernel already refused.
 */
export class DarwinProcessFiles {
  private vnodePaths: Buffer | null = null;
  private readonly socketInfo = Buffer.alloc(SOCKET_FDINFO_SIZE);
  private fdList = Buffer.alloc(256 * PROC_FDINFO_SIZE);

  constructor(
    private readonly lib: LibSystem,
    private readonly denied: (pid: number) => boolean,
  ) {}

  /**
   * Working directories from proc_pidinfo(PROC_PIDVNODEPATHINFO) (pvi_cdir.vip_path): null for a gone
   * pid or a zombie (ESRCH, proc_find) and for another user's process unless root (EPERM,
   * proc_security_policy), as bsd/kern/proc_info.c proc_pidinfo refuses them. An identity already
   * refused its task info is not asked again.
   */
  readCwd(pids: Iterable<number>): Map<number, string | null> {
    const buf = (this.vnodePaths ??= Buffer.alloc(VNODEPATHINFO_SIZE));
    const out = new Map<number, string | null>();
    for (const pid of pids) {
      if (this.denied(pid)) {
        out.set(pid, null);
        continue;
      }
      const n = this.lib.procPidInfo(pid, PROC_PIDVNODEPATHINFO, 0, buf);
      out.set(pid, n >= VNODEPATHINFO_SIZE ? decodeCwd(buf) : null);
    }
    return out;
  }

  /**
   * Listening sockets from each pid's descriptor list (PROC_PIDLISTFDS) and, for each socket
   * descriptor, proc_pidfdinfo(PROC_PIDFDSOCKETINFO): one call per descriptor of these pids only, no
   * table of the whole system. A pid the kernel refuses (gone, zombie, another user's) is absent, and
   * so is a process with no descriptor at all, which libproc's 0 cannot tell from a refusal. A
   * descriptor closed or replaced between the two calls is skipped (EBADF / ENOTSOCK, fp_get_ftype).
   */
  listeningPorts(pids: Iterable<number>): Map<number, ListeningPort[]> {
    const out = new Map<number, ListeningPort[]>();
    for (const pid of pids) {
      if (this.denied(pid)) continue;
      const fds = this.socketFdsOf(pid);
      if (fds === null) continue;
      const found: (ListeningPort | null)[] = [];
      for (const fd of fds) {
        if (this.lib.procPidFdInfo(pid, fd, PROC_PIDFDSOCKETINFO, this.socketInfo) < SOCKET_FDINFO_SIZE)
          continue;
        found.push(decodeListeningSocket(this.socketInfo));
      }
      out.set(pid, distinctPorts(found));
    }
    return out;
  }

  /**
   * proc_pidfdlist copies as many entries as fit and returns their bytes; a full buffer may have been
   * cut short, so it is doubled and asked again.
   */
  private socketFdsOf(pid: number): number[] | null {
    for (;;) {
      const n = this.lib.procPidInfo(pid, PROC_PIDLISTFDS, 0, this.fdList);
      if (n <= 0) return null;
      if (n < this.fdList.length) return decodeSocketFds(this.fdList, n);
      this.fdList = Buffer.alloc(this.fdList.length * 2);
    }
  }
}
