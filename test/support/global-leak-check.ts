import { readFileSync } from 'node:fs';
import { allPids, readProcStat } from './proc';

/**
 * After the whole run, any process a test left behind fails the run: a leaked test process is the
 * very bug Corral exists to catch. Inside the test PID namespace everything outside the runner's own
 * process group (and PID 1, the namespace's init) is a leak; on a shared host, anything carrying the
 * fixtures' environment marker is.
 */
function inOwnPidNamespace(): boolean {
  try {
    const init = readFileSync('/proc/1/comm', 'utf8').trim();
    return init === 'tini' || init === 'unshare';
  } catch {
    return false;
  }
}

function hasFixtureMarker(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes('CORRAL_TEST_FIXTURE=1');
  } catch {
    return false;
  }
}

function describe(pid: number): string {
  let cmd = '';
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, 'latin1').replaceAll('\0', ' ').trim();
  } catch {
    cmd = '?';
  }
  const s = readProcStat(pid);
  return `pid ${pid} ppid ${s?.ppid} pgid ${s?.pgid}: ${cmd}`;
}

export default function setup(): () => void {
  // Without /proc (the macOS CI job), that job lists leftovers with ps after the run instead.
  if (process.platform !== 'linux') return () => {};
  const runnerPgid = readProcStat(process.pid)!.pgid;
  const namespaced = inOwnPidNamespace();
  return () => {
    const leaked = allPids().filter((pid) => {
      const s = readProcStat(pid);
      if (!s || s.state === 'Z' || pid === 1 || pid === process.pid) return false;
      return namespaced ? s.pgid !== runnerPgid : hasFixtureMarker(pid);
    });
    if (leaked.length > 0) {
      throw new Error(`tests leaked ${leaked.length} process(es):\n${leaked.map(describe).join('\n')}`);
    }
  };
}
