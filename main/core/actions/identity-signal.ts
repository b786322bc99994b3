import type { ProcessRecord } from '../model/process-record';
import type { ProcessSampler } from '../sampling/process-sampler';
import { pidfdClose, pidfdOpen, pidfdSendSignal, type PidfdOpen } from '../os/pidfd';
import type { ProcessIdentity, SignalName, SignalResult } from './teardown-types';

/** A way to signal exactly one process (pid + start key), never whatever later reuses its PID. */
export interface IdentityHandle {
  readonly via: 'pidfd' | 'kill';
  signal(signal: SignalName): SignalResult;
  close(): void;
}

export type OpenedIdentity =
  { handle: IdentityHandle; record: ProcessRecord } | { gone: true } | { error: string };

function readSame(sampler: ProcessSampler, identity: ProcessIdentity): ProcessRecord | null {
  const [record] = sampler.sampleSome([identity.pid]);
  return record && record.startKey === identity.startKey ? record : null;
}

/**
 * Pins one process. With a pidfd, the start key is checked AFTER the pidfd is open: the pidfd already
 * refers to one specific process, so if /proc still shows the expected start key at that point, the
 * pidfd is that process and stays so. Without pidfds (macOS, kernels before 5.3) each signal is
 * preceded by a fresh identity check, which leaves only the instant between check and kill.
 */
export function openIdentity(
  sampler: ProcessSampler,
  identity: ProcessIdentity,
  openPidfd: (pid: number) => PidfdOpen = pidfdOpen,
): OpenedIdentity {
  const opened = openPidfd(identity.pid);
  if ('fd' in opened) {
    const record = readSame(sampler, identity);
    if (!record) {
      pidfdClose(opened.fd);
      return { gone: true };
    }
    const fd = opened.fd;
    let open = true;
    return {
      record,
      handle: {
        via: 'pidfd',
        signal: (signal) => (open ? pidfdSendSignal(fd, signal) : 'error'),
        close: () => {
          if (open) pidfdClose(fd);
          open = false;
        },
      },
    };
  }
  if (opened.error === 'ESRCH') return { gone: true };
  if (opened.error !== 'unavailable') return { error: `pidfd_open failed (${opened.error})` };

  const record = readSame(sampler, identity);
  if (!record) return { gone: true };
  return {
    record,
    handle: {
      via: 'kill',
      signal: (signal) => {
        if (!readSame(sampler, identity)) return 'ESRCH';
        return killResult(() => process.kill(identity.pid, signal));
      },
      close: () => {},
    },
  };
}

/** Runs a kill and names its outcome the way SignalRecord does. */
export function killResult(kill: () => void): SignalResult {
  try {
    kill();
    return 'sent';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ESRCH' ? 'ESRCH' : code === 'EPERM' ? 'EPERM' : 'error';
  }
}
