import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { GroupView, Snapshot } from '../../shared/model';
import {
  firstSnapshot,
  isSmokeTest,
  loadedNativeModules,
  nativeModuleOfBinary,
  smokeVerdict,
  snapshotSize,
  type SmokeReport,
} from '../../main/electron/smoke-test';

const snapshot = (processes: number[]): Snapshot => ({
  seq: 1,
  sampledAt: 1,
  groups: processes.map(
    (n, i) => ({ id: `g${i}`, processes: Array.from({ length: n }, () => ({})) }) as unknown as GroupView,
  ),
});

/** A service's snapshot push, as CorralService.onSnapshot offers it. */
function pushes(): {
  emit: (s: Snapshot) => void;
  subscribe: (l: (s: Snapshot) => void) => () => void;
  listeners: () => number;
} {
  const bus = new EventEmitter();
  return {
    emit: (s) => bus.emit('snapshot', s),
    subscribe: (listener) => {
      bus.on('snapshot', listener);
      return () => bus.off('snapshot', listener);
    },
    listeners: () => bus.listenerCount('snapshot'),
  };
}

const good: SmokeReport = {
  trayCreated: true,
  snapshotSize: 412,
  snapshotGroups: 230,
  nativeModulesExpected: ['libsql', 'koffi'],
  nativeModulesLoaded: ['libsql', 'koffi'],
  nativeModulesFailed: [],
  appNapOptOut: true,
  elapsedMs: 1800,
};

describe('--smoke-test', () => {
  it('is asked for by its flag only', () => {
    expect(isSmokeTest(['/Applications/Corral.app/Contents/MacOS/Corral', '--smoke-test'])).toBe(true);
    expect(isSmokeTest(['/Applications/Corral.app/Contents/MacOS/Corral'])).toBe(false);
  });

  it('waits for the first snapshot with processes in it and then stops listening', async () => {
    const bus = pushes();
    const waiting = firstSnapshot(bus.subscribe, 5000);
    bus.emit(snapshot([])); // the tray's empty start
    const full = snapshot([3, 2]);
    setTimeout(() => bus.emit(full), 10);
    expect(await waiting).toBe(full);
    await Promise.resolve();
    expect(bus.listeners()).toBe(0);
    expect(snapshotSize(full)).toEqual({ processes: 5, groups: 2 });
  });

  it('fails after the time limit when no snapshot comes', async () => {
    const bus = pushes();
    await expect(firstSnapshot(bus.subscribe, 50)).rejects.toThrow('no snapshot with processes within 50 ms');
    expect(bus.listeners()).toBe(0);
  });

  it('prints one JSON line, exit 0 only when tray, snapshot and native modules are all there', () => {
    const pass = smokeVerdict(good);
    expect(pass.exitCode).toBe(0);
    expect(pass.line).not.toContain('\n');
    expect(JSON.parse(pass.line)).toEqual({ ok: true, ...good });
    const failing: Array<Partial<SmokeReport>> = [
      { trayCreated: false },
      { snapshotSize: 0 },
      { nativeModulesFailed: ['koffi'] },
      { nativeModulesLoaded: [] },
      { nativeModulesLoaded: ['libsql'] },
      { appNapOptOut: false },
      { error: 'the worker exited' },
    ];
    for (const change of failing) {
      const verdict = smokeVerdict({ ...good, ...change });
      expect(verdict.exitCode, JSON.stringify(change)).toBe(1);
      expect(JSON.parse(verdict.line).ok).toBe(false);
    }
    expect(smokeVerdict({ ...good, appNapOptOut: null }).exitCode).toBe(0); // Linux: no App Nap
  });
});

describe('the native modules the smoke test reports are the ones really loaded', () => {
  it('names a module by the package its binary was loaded from', () => {
    const app = '/Applications/Corral.app/Contents/Resources/app.asar.unpacked/node_modules';
    expect(nativeModuleOfBinary(`${app}/@koromix/koffi-darwin-arm64/darwin_arm64/koffi.node`)).toBe('koffi');
    expect(nativeModuleOfBinary(`${app}/koffi/build/koffi/darwin_arm64/koffi.node`)).toBe('koffi');
    expect(nativeModuleOfBinary(`${app}/@libsql/darwin-arm64/index.node`)).toBe('libsql');
    expect(nativeModuleOfBinary('/usr/lib/libSystem.B.dylib')).toBeNull();
    expect(nativeModuleOfBinary(`${app}/other/build/Release/other.node`)).toBeNull();
  });

  it('finds koffi among this process’s shared objects only once its binary is loaded', () => {
    // Vitest's worker has not loaded koffi's binary before this line (nothing in this file imports it).
    expect(loadedNativeModules()).not.toContain('koffi');
    createRequire(import.meta.url)('koffi');
    expect(loadedNativeModules()).toContain('koffi');
  });
});
