import { describe, expect, it } from 'vitest';
import { resolveDataDir } from '../../main/core/storage/data-dir';

describe('resolveDataDir', () => {
  it.each([
    ['CORRAL_DATA_DIR wins everywhere', { CORRAL_DATA_DIR: '/srv/corral' }, 'linux', '/srv/corral'],
    ['CORRAL_DATA_DIR on macOS', { CORRAL_DATA_DIR: '/tmp/c' }, 'darwin', '/tmp/c'],
    ['blank CORRAL_DATA_DIR is ignored', { CORRAL_DATA_DIR: '  ' }, 'linux', '/home/ann/.local/share/corral'],
    ['Linux default', {}, 'linux', '/home/ann/.local/share/corral'],
    ['Linux XDG_DATA_HOME', { XDG_DATA_HOME: '/data/ann' }, 'linux', '/data/ann/corral'],
    [
      'relative XDG_DATA_HOME is invalid',
      { XDG_DATA_HOME: 'data' },
      'linux',
      '/home/ann/.local/share/corral',
    ],
    ['FreeBSD follows XDG too', { XDG_DATA_HOME: '/x' }, 'freebsd', '/x/corral'],
    ['macOS', { XDG_DATA_HOME: '/ignored' }, 'darwin', '/home/ann/Library/Application Support/Corral'],
  ] as const)('%s', (_name, env, platform, expected) => {
    expect(resolveDataDir(env, platform, '/home/ann')).toBe(expected);
  });

  it('uses LOCALAPPDATA on Windows', () => {
    expect(
      resolveDataDir({ LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local' }, 'win32', 'C:\\Users\\ann'),
    ).toBe('C:\\Users\\ann\\AppData\\Local\\Corral');
    expect(resolveDataDir({}, 'win32', 'C:\\Users\\ann')).toBe('C:\\Users\\ann\\AppData\\Local\\Corral');
  });
});
