// An atomic write that fails (here: a directory where the file should be, so the rename fails) leaves
// no temporary file beside the one it meant to replace.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { saveSettings } from '../../main/core/config/save-settings';
import { writeOwnFileAtomically } from '../../main/core/storage/own-data-dir';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs';

const tempDir = tempDirsRemovedAfterEach();

/** A folder holding `name` as a non-empty directory, which no file can be renamed over. */
function folderWithDirectoryAt(name: string): string {
  const folder = tempDir('corral-atomic-');
  mkdirSync(join(folder, name));
  writeFileSync(join(folder, name, 'inside'), 'x');
  return folder;
}

describe('a failed atomic write leaves no temporary file', () => {
  it('saveSettings', () => {
    const folder = folderWithDirectoryAt('config.json');
    expect(() => saveSettings(join(folder, 'config.json'), DEFAULT_SETTINGS)).toThrow();
    expect(readdirSync(folder)).toEqual(['config.json']);
  });

  it('writeOwnFileAtomically (stop notes, keeps, hook records in the data directory)', () => {
    const folder = folderWithDirectoryAt('note.json');
    expect(() => writeOwnFileAtomically(join(folder, 'note.json'), '{}')).toThrow();
    expect(readdirSync(folder)).toEqual(['note.json']);
  });

  it('and a write that succeeds leaves only the file', () => {
    const folder = tempDir('corral-atomic-');
    saveSettings(join(folder, 'config.json'), DEFAULT_SETTINGS);
    writeOwnFileAtomically(join(folder, 'note.json'), '{}');
    expect(readdirSync(folder).sort()).toEqual(['config.json', 'note.json']);
  });
});
