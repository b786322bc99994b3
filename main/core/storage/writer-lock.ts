import { closeSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import koffi from 'koffi';

export const LOCK_FILE = 'incidents.lock';

// flock(2): the kernel drops the lock when the last descriptor of the open file closes, which it
// does when the process dies however it dies (SIGKILL included), so a lock is never left stale.
const LOCK_EX = 2;
const LOCK_NB = 4;

type Flock = (fd: number, operation: number) => number;
let flock: Flock | null | undefined;

function loadFlock(): Flock | null {
  if (flock !== undefined) return flock;
  flock = null;
  const libraries =
    process.platform === 'linux'
      ? ['libc.so.6']
      : process.platform === 'darwin'
        ? ['/usr/lib/libSystem.B.dylib']
        : [];
  for (const name of libraries) {
    try {
      flock = koffi.load(name).func('int flock(int fd, int operation)') as Flock;
      break;
    } catch {
      flock = null;
    }
  }
  return flock;
}

export type WriterLock =
  { role: 'writer'; release: () => void } | { role: 'reader'; holderPid: number | null; why: string };

/**
 * Takes the one writer's place on a data directory: an exclusive, non-blocking flock on
 * `incidents.lock`, which also holds the writer's pid for the others' messages. Where flock cannot be
 * called (no libc through koffi), the caller writes as before and says nothing is guarded.
 */
export function takeWriterLock(dir: string): WriterLock {
  const call = loadFlock();
  const path = join(dir, LOCK_FILE);
  if (!call) return { role: 'writer', release: () => {} };
  let fd: number;
  try {
    fd = openSync(path, 'a+', 0o600);
  } catch {
    return { role: 'writer', release: () => {} };
  }
  if (call(fd, LOCK_EX | LOCK_NB) !== 0) {
    closeSync(fd);
    const holderPid = readHolder(path);
    return {
      role: 'reader',
      holderPid,
      why: `another Corral${holderPid ? ` (pid ${holderPid})` : ''} is recording incidents in ${dir}; this one only reads them`,
    };
  }
  try {
    ftruncateSync(fd, 0);
    writeSync(fd, `${process.pid}\n`, 0);
  } catch {
    // The pid is only for messages; the lock itself is what counts.
  }
  let released = false;
  return {
    role: 'writer',
    release: () => {
      if (released) return;
      released = true;
      closeSync(fd);
    },
  };
}

function readHolder(path: string): number | null {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
