import { describe, expect, it } from 'vitest';
import { inMacPrivacyFolder } from '../../main/core/files/mac-privacy-folders';

const home = '/Users/ada';

describe('folders macOS guards with a privacy prompt are never read by the app', () => {
  it.each([
    ['/Users/ada/Documents/proj/.mcp.json', true],
    ['/Users/ada/Desktop/x/.git', true],
    ['/Users/ada/Downloads', true],
    ['/Users/ada/Library/Mobile Documents/com~apple~CloudDocs/p/.git', true],
    ['/Volumes/USB/proj/.git', true],
    ['/Users/ada/Documents/../code/proj/.mcp.json', false],
    ['/Users/ada/code/proj/.mcp.json', false],
    ['/Users/ada/.claude/projects/-Users-ada-Documents-proj/s.jsonl', false],
    ['/Users/ada/DocumentsOld/x', false],
  ])('%s → %s', (path, guarded) => {
    expect(inMacPrivacyFolder(path, 'darwin', home, true)).toBe(guarded);
  });

  it('only in the app on macOS: the CLI reads with its terminal’s permission, Linux has no such folders', () => {
    expect(inMacPrivacyFolder('/Users/ada/Documents/p/.git', 'darwin', home, false)).toBe(false);
    expect(inMacPrivacyFolder('/Users/ada/Documents/p/.git', 'linux', home, true)).toBe(false);
  });
});
