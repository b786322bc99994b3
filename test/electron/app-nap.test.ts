import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Koffi from 'koffi';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_NAP_REASON,
  disableAppNap,
  forgetAppNapActivity,
  NSActivityIdleSystemSleepDisabled,
  NSActivityUserInitiated,
  NSActivityUserInitiatedAllowingIdleSystemSleep,
} from '../../main/electron/app-nap';
import { loadObjcRuntime, type ObjcRuntime } from '../../main/electron/objc-runtime';

afterEach(() => forgetAppNapActivity());

describe('NSActivityOptions as Foundation/NSProcessInfo.h defines them', () => {
  it('user-initiated allowing idle sleep is 0x00FFFFFF without bit 20: App Nap off, sleep allowed', () => {
    // NSActivityIdleSystemSleepDisabled = (1ULL << 20)
    expect(NSActivityIdleSystemSleepDisabled).toBe(0x100000n);
    // NSActivityUserInitiated = (0x00FFFFFFULL | NSActivityIdleSystemSleepDisabled)
    expect(NSActivityUserInitiated).toBe(0xffffffn);
    // NSActivityUserInitiatedAllowingIdleSystemSleep = (NSActivityUserInitiated & ~NSActivityIdleSystemSleepDisabled)
    expect(NSActivityUserInitiatedAllowingIdleSystemSleep).toBe(0xefffffn);
    expect(NSActivityUserInitiatedAllowingIdleSystemSleep & NSActivityIdleSystemSleepDisabled).toBe(0n);
  });
});

/** Records the calls made through the bridge, answering as Foundation would. */
function recordingRuntime(overrides: Partial<Record<'activity', unknown>> = {}): {
  objc: ObjcRuntime;
  calls: string[];
} {
  const calls: string[] = [];
  const activity = 'activity' in overrides ? overrides.activity : { token: 1 };
  const objc: ObjcRuntime = {
    autoreleasePoolPush: () => (calls.push('push'), 'pool'),
    autoreleasePoolPop: (pool) => void calls.push(`pop ${String(pool)}`),
    getClass: (name) => (calls.push(`class ${name}`), { cls: name }),
    send: (receiver, selector) => {
      calls.push(`send ${selector}`);
      return selector === 'processInfo' ? { info: true } : receiver;
    },
    sendCString: (_r, selector, value) => (calls.push(`send ${selector} ${value}`), { str: value }),
    sendOptionsAndObject: (_r, selector, options, object) => {
      calls.push(`send ${selector} 0x${options.toString(16)} ${JSON.stringify(object)}`);
      return activity;
    },
  };
  return { objc, calls };
}

describe('disableAppNap through an injected Objective-C bridge', () => {
  it('begins one user-initiated activity, retains the token inside a pool, and keeps it', () => {
    const { objc, calls } = recordingRuntime();
    const token = disableAppNap(objc);
    expect(calls).toEqual([
      'push',
      'class NSProcessInfo',
      'class NSString',
      'send processInfo',
      `send stringWithUTF8String: ${APP_NAP_REASON}`,
      `send beginActivityWithOptions:reason: 0xefffff {"str":"${APP_NAP_REASON}"}`,
      'send retain',
      'pop pool',
    ]);
    // A second call keeps the one activity rather than beginning another.
    expect(disableAppNap(objc)).toBe(token);
    expect(calls).toHaveLength(8);
  });

  it('a nil token is an error, and the pool is popped all the same', () => {
    const { objc, calls } = recordingRuntime({ activity: null });
    expect(() => disableAppNap(objc)).toThrow(/returned nil/);
    expect(calls.at(-1)).toBe('pop pool');
    expect(calls).not.toContain('send retain');
  });
});

// The real koffi bindings, pointed at a Linux library with libobjc's signatures (see the C file).
describe('loadObjcRuntime bindings through koffi', () => {
  const source = fileURLToPath(new URL('../fixtures/darwin/fake-libobjc.c', import.meta.url));
  let dir: string;
  let so: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'corral-fake-libobjc-'));
    so = join(dir, 'libfakeobjc.so');
    execFileSync('gcc', ['-shared', '-fPIC', '-O1', '-Wall', '-Werror', '-o', so, source]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes the 64-bit options, the C string and the objects as the prototypes declare', () => {
    disableAppNap(loadObjcRuntime(so), 'watching');
    const koffi = createRequire(import.meta.url)('koffi') as typeof Koffi;
    const readLog = koffi.load(so).func('const char *fake_objc_log(void)');
    expect((readLog() as string).trim().split('\n')).toEqual([
      'poolPush',
      'getClass NSProcessInfo',
      'getClass NSString',
      '[NSProcessInfo processInfo]',
      '[NSString stringWithUTF8String:watching]',
      '[processInfo beginActivityWithOptions:0xefffff reason:reason]',
      '[activity retain]',
      'poolPop',
    ]);
  });
});
