// App Nap would throttle a windowless menu-bar app's timers (a 1 s poll coming seconds apart), and
// runaways would go unflagged while the popover is closed. NSAppSleepDisabled is a user-defaults key,
// not an Info.plist key, so the opt-out is made at run time the way menu-bar utilities do: an
// NSProcessInfo activity that is user-initiated yet allows idle system sleep, so the Mac still sleeps
// and no power assertion is taken (never a powerSaveBlocker).
import type { ObjcId, ObjcRuntime } from './objc-runtime';

// NSActivityOptions, Foundation.framework/Headers/NSProcessInfo.h
// (typedef NS_OPTIONS(uint64_t, NSActivityOptions), macOS 10.9 and later).
export const NSActivityIdleSystemSleepDisabled = 1n << 20n;
export const NSActivityUserInitiated = 0x00ffffffn | NSActivityIdleSystemSleepDisabled;
export const NSActivityUserInitiatedAllowingIdleSystemSleep =
  NSActivityUserInitiated & ~NSActivityIdleSystemSleepDisabled;

export const APP_NAP_REASON = 'Corral watches for runaway and orphaned processes while in the menu bar';

/** The activity token; held (and retained) for the life of the app: App Nap returns once it is released. */
let activity: ObjcId = null;

/**
 * Begins the activity and keeps it. The token comes back autoreleased (a method not named alloc, new
 * or copy), so it is retained before the autorelease pool around the calls is popped.
 */
export function disableAppNap(objc: ObjcRuntime, reason = APP_NAP_REASON): ObjcId {
  if (activity !== null) return activity;
  const pool = objc.autoreleasePoolPush();
  try {
    const processInfoClass = objc.getClass('NSProcessInfo');
    const stringClass = objc.getClass('NSString');
    if (!processInfoClass || !stringClass) throw new Error('Foundation is not loaded');
    const processInfo = objc.send(processInfoClass, 'processInfo');
    const why = objc.sendCString(stringClass, 'stringWithUTF8String:', reason);
    const token = objc.sendOptionsAndObject(
      processInfo,
      'beginActivityWithOptions:reason:',
      NSActivityUserInitiatedAllowingIdleSystemSleep,
      why,
    );
    if (!token) throw new Error('beginActivityWithOptions:reason: returned nil');
    objc.send(token, 'retain');
    activity = token;
    return token;
  } finally {
    objc.autoreleasePoolPop(pool);
  }
}

/** For tests: forget the held token (the real app never does). */
export function forgetAppNapActivity(): void {
  activity = null;
}
