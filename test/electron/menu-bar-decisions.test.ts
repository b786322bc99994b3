import { describe, expect, it } from 'vitest';
import { loginItemView } from '../../main/electron/login-item-view';
import {
  checkNativeModules,
  describeNativeFailures,
  nativeModulesFor,
} from '../../main/electron/native-check';
import { noticeReaction } from '../../main/electron/notice-reaction';
import type { Notice } from '../../main/electron/notification-policy';

describe('noticeReaction', () => {
  const single: Notice = {
    title: 'Orphaned: sleep 600',
    body: 'claude-code left it running',
    groupId: '42:42:1',
    stop: { groupId: '42:42:1', orphansOnly: false },
  };
  const burst: Notice = { ...single, title: '40 processes left behind', stop: null };
  const table: Array<[string, Parameters<typeof noticeReaction>, ReturnType<typeof noticeReaction>]> = [
    ['a click opens the group', ['click', single, true], { kind: 'open-group', groupId: '42:42:1' }],
    [
      'an unsigned build or denied permission fails to show it: said in the menu, no window pops up',
      ['failed', single, true],
      { kind: 'notifications-blocked' },
    ],
    [
      'Stop asks for confirmation, never stops directly',
      ['action', single, true],
      {
        kind: 'confirm-stop',
        groupId: '42:42:1',
        orphansOnly: false,
        description: 'Orphaned: sleep 600\nclaude-code left it running',
      },
    ],
    [
      'an action that was not offered opens the group',
      ['action', single, false],
      { kind: 'open-group', groupId: '42:42:1' },
    ],
    ['a burst has no Stop to act on', ['action', burst, true], { kind: 'open-group', groupId: '42:42:1' }],
    ['a closed notification is forgotten', ['close', single, true], { kind: 'forget' }],
  ];
  it.each(table)('%s', (_, args, expected) => {
    expect(noticeReaction(...args)).toEqual(expected);
  });
});

describe('loginItemView', () => {
  it('never offers a development run as a login item', () => {
    const view = loginItemView({
      platform: 'darwin',
      isPackaged: false,
      openAtLogin: true,
      status: 'enabled',
    });
    expect(view.checked).toBe(false);
    expect(view.refusal).toMatch(/development run/);
  });

  it('says a macOS login item awaits approval instead of showing a tick', () => {
    expect(
      loginItemView({ platform: 'darwin', isPackaged: true, openAtLogin: true, status: 'requires-approval' }),
    ).toEqual({ checked: false, note: 'awaiting approval in System Settings › Login Items', refusal: null });
  });

  it('ticks an enabled macOS login item and leaves a not-registered one unticked', () => {
    expect(
      loginItemView({ platform: 'darwin', isPackaged: true, openAtLogin: false, status: 'enabled' }).checked,
    ).toBe(true);
    expect(
      loginItemView({ platform: 'darwin', isPackaged: true, openAtLogin: true, status: 'not-registered' })
        .checked,
    ).toBe(false);
  });

  it('follows the autostart file on Linux', () => {
    expect(loginItemView({ platform: 'linux', isPackaged: true, openAtLogin: true })).toEqual({
      checked: true,
      note: null,
      refusal: null,
    });
  });
});

describe('checkNativeModules', () => {
  it('loads the native modules this platform needs (the real ones, here)', () => {
    expect(checkNativeModules(nativeModulesFor(process.platform))).toEqual([]);
    expect(nativeModulesFor('darwin', 'libsql')).toEqual(['libsql', 'koffi']);
    expect(nativeModulesFor('linux', 'libsql')).toEqual(['libsql']);
    // node:sqlite is part of the runtime: libsql is then never loaded, so it cannot fail.
    expect(nativeModulesFor('darwin', 'node:sqlite')).toEqual(['koffi']);
    expect(nativeModulesFor('linux', 'node:sqlite')).toEqual([]);
  });

  it('names a module that does not load, for the start-up dialog', () => {
    const failures = checkNativeModules(['libsql', 'corral-no-such-native-module']);
    expect(failures.map((f) => f.module)).toEqual(['corral-no-such-native-module']);
    expect(describeNativeFailures(failures, 'x64')).toMatch(
      /corral-no-such-native-module: Cannot find module/,
    );
  });
});
