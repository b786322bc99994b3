// `Corral --smoke-test`: CI launches the packaged app this way on real Macs. It starts the tray and the
// core as a normal launch does, waits for the first full snapshot, prints one JSON line and exits 0 when
// the tray exists, the snapshot has processes and every native module loaded; non-zero otherwise. It
// never shows a dialog (nobody is there to close it).
import type { Snapshot } from '../../shared/model';

export const SMOKE_TEST_FLAG = '--smoke-test';
export const SMOKE_TEST_TIMEOUT_MS = 60_000;

export function isSmokeTest(argv: readonly string[]): boolean {
  return argv.includes(SMOKE_TEST_FLAG);
}

export interface SmokeReport {
  trayCreated: boolean;
  /** Processes in the first full snapshot. */
  snapshotSize: number;
  snapshotGroups: number;
  /** The native modules this platform needs (native-check.ts `nativeModulesFor`). */
  nativeModulesExpected: string[];
  /** Those whose binary the process really has loaded, read from its shared objects. */
  nativeModulesLoaded: string[];
  nativeModulesFailed: string[];
  /** null where there is no App Nap (not macOS). */
  appNapOptOut: boolean | null;
  /** From the app's start to the first snapshot. */
  elapsedMs: number;
  error?: string;
}

export function smokeVerdict(report: SmokeReport): { exitCode: number; line: string } {
  const ok =
    report.error === undefined &&
    report.trayCreated &&
    report.snapshotSize > 0 &&
    report.nativeModulesFailed.length === 0 &&
    report.nativeModulesExpected.every((m) => report.nativeModulesLoaded.includes(m)) &&
    report.appNapOptOut !== false;
  return { exitCode: ok ? 0 : 1, line: JSON.stringify({ ok, ...report }) };
}

/** Which of Corral's native modules a loaded shared object is, by the package it was loaded from. */
export function nativeModuleOfBinary(path: string): string | null {
  if (!path.endsWith('.node')) return null;
  // koffi 3 ships its binaries in per-platform packages (@koromix/koffi-darwin-arm64, …).
  if (/[\\/]node_modules[\\/](?:koffi|@koromix[\\/]koffi-[^\\/]+)[\\/]/.test(path)) return 'koffi';
  if (/[\\/]node_modules[\\/](?:@libsql[\\/][^\\/]+|libsql)[\\/]/.test(path)) return 'libsql';
  return null;
}

/**
 * The native modules whose binary this process has loaded: Node's diagnostic report lists every shared
 * object mapped into the process (dyld's images on macOS), so a module counts only when its code is
 * really there, not because a list says it should be.
 */
export function loadedNativeModules(
  sharedObjects: readonly string[] = (process.report.getReport() as { sharedObjects?: string[] })
    .sharedObjects ?? [],
): string[] {
  const found = sharedObjects.map(nativeModuleOfBinary).filter((m): m is string => m !== null);
  return [...new Set(found)];
}

export function snapshotSize(snapshot: Snapshot): { processes: number; groups: number } {
  return {
    processes: snapshot.groups.reduce((n, g) => n + g.processes.length, 0),
    groups: snapshot.groups.length,
  };
}

/** The first snapshot pushed with a process in it; rejects after `timeoutMs`. */
export function firstSnapshot(
  subscribe: (listener: (snapshot: Snapshot) => void) => () => void,
  timeoutMs = SMOKE_TEST_TIMEOUT_MS,
): Promise<Snapshot> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      unsubscribe();
      reject(new Error(`no snapshot with processes within ${timeoutMs} ms`));
    }, timeoutMs);
    const unsubscribe = subscribe((snapshot) => {
      if (settled || snapshotSize(snapshot).processes === 0) return;
      settled = true;
      clearTimeout(timer);
      // A listener may be called before subscribe returns: unsubscribe once it has.
      queueMicrotask(() => unsubscribe());
      resolve(snapshot);
    });
  });
}
