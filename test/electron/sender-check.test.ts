import { describe, expect, it } from 'vitest';
import { isTrustedSender } from '../../main/electron/sender-check';
import { autostartDesktopEntry, desktopExecArgument } from '../../main/electron/autostart-entry';
import {
  formatDuration,
  msUntilAgeReadsOtherwise,
  msUntilCountdownReadsOtherwise,
} from '../../main/electron/format';

const where = { fileUrl: 'file:///opt/Corral/resources/app.asar/out/renderer/index.html' };
const dev = { ...where, devServerUrl: 'http://localhost:5173' };
const own = { isOwnWindow: true, isMainFrame: true };

describe('isTrustedSender', () => {
  it.each([
    ['our built renderer', own, where.fileUrl, where, true],
    ['our renderer on a group', own, `${where.fileUrl}#group=1:2:3`, where, true],
    ['the dev server in development', own, 'http://localhost:5173/', dev, true],
    ['another window', { ...own, isOwnWindow: false }, where.fileUrl, where, false],
    ['a subframe', { ...own, isMainFrame: false }, where.fileUrl, where, false],
    ['another local file', own, 'file:///tmp/evil.html', where, false],
    ['a remote page', own, 'https://evil.example/', dev, false],
    ['the dev server origin when not in development', own, 'http://localhost:5173/', where, false],
    ['another port on localhost', own, 'http://localhost:5174/', dev, false],
    ['no url', own, undefined, where, false],
    ['garbage url', own, 'not a url', where, false],
  ])('%s → %s', (_name, facts, frameUrl, location, trusted) => {
    expect(isTrustedSender({ ...facts, frameUrl }, location)).toBe(trusted);
  });
});

describe('autostart entry', () => {
  it('quotes the executable per the Desktop Entry spec', () => {
    expect(desktopExecArgument('/opt/Corral/corral')).toBe('"/opt/Corral/corral"');
    expect(desktopExecArgument('/home/a b/100%/$x')).toBe('"/home/a b/100%%/\\\\$x"');
    expect(autostartDesktopEntry('/usr/bin/corral')).toContain('Exec="/usr/bin/corral"\n');
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [59_000, '59s'],
    [60_000, '1m'],
    [3_600_000, '1h'],
    [3_660_000, '1h 1m'],
    [86_400_000, '1d'],
    [90_000_000, '1d 1h'],
    [-5, '0s'],
  ])('%i ms → %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});

describe('when a duration reads otherwise', () => {
  // Each case: the wait, and that formatDuration reads the same just before it and otherwise at it.
  it.each([
    [0, 1000],
    [59_400, 600],
    [60_000, 60_000],
    [754_321, 25_679],
    [3 * 3_600_000 + 59_999, 1],
    [86_400_000 + 10, 3_600_000 - 10],
  ])('an age of %i ms in %i ms', (age, wait) => {
    expect(msUntilAgeReadsOtherwise(age)).toBe(wait);
    expect(formatDuration(age + wait - 1)).toBe(formatDuration(age));
    expect(formatDuration(age + wait)).not.toBe(formatDuration(age));
  });

  it.each([
    [60_000, 1],
    [59_999, 1000],
    [3_600_500, 501],
    [1500, 501],
  ])('%i ms left in %i ms', (left, wait) => {
    expect(msUntilCountdownReadsOtherwise(left)).toBe(wait);
    expect(formatDuration(left - wait + 1)).toBe(formatDuration(left));
    expect(formatDuration(left - wait)).not.toBe(formatDuration(left));
  });
});
