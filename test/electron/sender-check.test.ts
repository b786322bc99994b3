import { describe, expect, it } from 'vitest';
import { isTrustedSender } from '../../main/electron/sender-check';
import { autostartDesktopEntry, desktopExecArgument } from '../../main/electron/autostart-entry';

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
