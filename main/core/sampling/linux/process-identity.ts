import type { ProcessRecord } from '../../model/process-record';
import { argvFromCmdline, pickEnv } from './nul-fields';
import type { ProcFileReader } from './proc-files';
import { ttyName } from './stat-parser';

/** What a process keeps until it execs: read once, then the record is rebuilt from stat alone. */
export interface IdentityCache {
  startKey: number;
  /** comm when argv was read: a change means the process exec'd and argv must be read again. */
  name: string;
  argv: string[];
  /** Read inside execve's window (readInExecWindow): read again at the next look instead of kept for good. */
  readMidExec: boolean;
  uid: number;
  markers: Record<string, string>;
  environReadable: boolean;
  ttyNr: number;
  tty: string | null;
  /** The stat text last parsed and the record built from it: the same text again is the same record. */
  statText: Buffer | null;
  record: ProcessRecord | null;
  /** One thread at the last stat read: the schedstat probe speaks for it (see schedstat-probe). */
  singleThreaded: boolean;
  /** The schedstat text read just before that stat: the same text again, and it has not run since. */
  schedText: Buffer | null;
}

/** argv, owner and the marker variables of /proc/<pid> (`base`); null when it is gone. */
export function readIdentity(
  reader: ProcFileReader,
  base: string,
  startKey: number,
  name: string,
  markerKeys: ReadonlySet<string>,
  zombie = false,
): IdentityCache | null {
  // The owner of /proc/<pid>/cmdline is the process's effective uid.
  const cmdline = reader.read(`${base}/cmdline`, { wantOwner: true });
  if (!cmdline) return null;
  const argv = argvFromCmdline(reader.bytes, cmdline.length);
  const uid = cmdline.uid;
  let markers: Record<string, string> = {};
  let environReadable = false;
  // A zombie has no memory left to read an environment from: its environ reads empty (environ_read() in
  // fs/proc/base.c finds no mm), so it is not opened. A fork storm's children are mostly read as zombies.
  if (zombie) environReadable = true;
  else if (markerKeys.size > 0) {
    const environ = reader.read(`${base}/environ`);
    if (environ) {
      environReadable = true;
      markers = pickEnv(reader.bytes, environ.length, markerKeys);
    }
  }
  return {
    startKey,
    name,
    argv,
    readMidExec: false,
    uid,
    markers,
    environReadable,
    ttyNr: 0,
    tty: null,
    statText: null,
    record: null,
    singleThreaded: false,
    schedText: null,
  };
}

export function sameText(kept: Buffer | null, bytes: Buffer, length: number): boolean {
  return kept !== null && kept.length === length && bytes.compare(kept, 0, length, 0, length) === 0;
}

/** A copy of the text just read, in the kept buffer when it has the same length (stat's usually does). */
export function keepText(kept: Buffer | null, bytes: Buffer, length: number): Buffer {
  const into = kept !== null && kept.length === length ? kept : Buffer.allocUnsafe(length);
  bytes.copy(into, 0, 0, length);
  return into;
}

/** The terminal's name, kept with the identity: it rarely changes, and is read every second. */
export function ttyOf(known: IdentityCache, ttyNr: number): string | null {
  if (known.ttyNr !== ttyNr) {
    known.ttyNr = ttyNr;
    known.tty = ttyName(ttyNr);
  }
  return known.tty;
}
