// kill(-pgid, sig) as macOS answers it, over this machine's real process table, for the teardown code
// (main/core/actions/group-signal.ts replaceGroupKillForTest). xnu bsd/kern/kern_sig.c:
//   kill() with pid < -1 → killpg1(cp, signum, -pid, all = 0, posix = 1) (libc's kill is the POSIX one);
//   killpg1: pgrp_find(pgid) == NULL → ESRCH; pgrp_iterate's filter skips P_SYSTEM and `p_stat == SZOMB`,
//   killpg1_callback counts (and signals) each member the caller may signal;
//   error = nfound > 0 ? 0 : (posix ? EPERM : ESRCH).
// So a group whose members are all zombies exists (ESRCH is not the answer) yet gets EPERM, where Linux
// says success. Live members are signalled by the real kill (the tests run as root: cansignal holds).
import { allPids, readProcStat } from '../support/proc';

function errnoError(code: 'ESRCH' | 'EPERM', pgid: number): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`kill ${code} (stand-in for macOS, PGID ${pgid})`);
  error.code = code;
  error.syscall = 'kill';
  return error;
}

export function darwinKillpg(pgid: number, signal: NodeJS.Signals | 0): void {
  const members = allPids()
    .map(readProcStat)
    .filter((s) => s !== null && s.pgid === pgid);
  if (members.length === 0) throw errnoError('ESRCH', pgid);
  if (members.every((s) => s!.state === 'Z')) throw errnoError('EPERM', pgid);
  process.kill(-pgid, signal);
}
