// The one reader of files Corral did not write, on real files: FIFOs, devices, symlinks, loops, paths
// too long, directories, huge files, another user's files. Reads that could block run in a process of
// their own with a timeout, so a regression fails the test instead of hanging the runner.
import { execFile, execFileSync } from 'node:child_process';
import {
  chownSync,
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  closeUntrusted,
  entryKind,
  isNotFound,
  isRefusal,
  listUntrustedDir,
  openUntrustedFile,
  readRange,
  readUntrustedFile,
} from '../../main/core/files/untrusted-file';

const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const READER = fileURLToPath(new URL('../fixtures/read-untrusted.ts', import.meta.url));
const NOBODY = 65534;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'corral-untrusted-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The reader run in its own process: what it printed, or a failure when it did not finish in time. */
function readInChild(path: string, rules: object = { maxBytes: 1 << 20 }): Promise<unknown> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [TSX, READER, path, JSON.stringify(rules)],
      { timeout: 20_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir } },
      (err, stdout) =>
        err ? reject(new Error(`the reader did not finish: ${String(err)}`)) : resolve(JSON.parse(stdout)),
    ),
  );
}

describe('readUntrustedFile', () => {
  it('reads a regular file whole, with its size, mode and owner', () => {
    const path = join(dir, 'session.json');
    writeFileSync(path, '{"sessionId":"a"}', { mode: 0o600 });
    const file = readUntrustedFile(path, { maxBytes: 1024 });
    expect(isRefusal(file)).toBe(false);
    if (isRefusal(file)) return;
    expect(file.bytes.toString()).toBe('{"sessionId":"a"}');
    expect(file.size).toBe(17);
    expect(file.mode & 0o777).toBe(0o600);
  });

  it('refuses a FIFO nobody writes to, at once (the open does not wait for a writer)', async () => {
    const fifo = join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    expect(await readInChild(fifo)).toEqual({ refused: 'not-a-regular-file' });
  });

  it('refuses a FIFO whose writer never writes (nothing is read from it)', async () => {
    const fifo = join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    const writer = openSync(fifo, constants.O_RDWR); // a FIFO opened read-write never blocks (fifo(7))
    try {
      expect(await readInChild(fifo)).toEqual({ refused: 'not-a-regular-file' });
    } finally {
      closeSync(writer);
    }
  });

  it('refuses a character device (/dev/zero would never end)', async () => {
    expect(await readInChild('/dev/zero', { maxBytes: 1 << 30, followSymlink: true })).toEqual({
      refused: 'not-a-regular-file',
    });
  });

  it('refuses a directory', () => {
    expect(readUntrustedFile(dir, { maxBytes: 1024 })).toEqual({ refused: 'not-a-regular-file' });
  });

  it('refuses a file larger than its budget, and reads one at the budget', () => {
    const path = join(dir, 'big');
    writeFileSync(path, Buffer.alloc(4097));
    expect(readUntrustedFile(path, { maxBytes: 4096 })).toEqual({ refused: 'too-large' });
    writeFileSync(path, Buffer.alloc(4096));
    expect(isRefusal(readUntrustedFile(path, { maxBytes: 4096 }))).toBe(false);
  });

  it('refuses a final symlink unless told to follow it, and a symlink loop either way', () => {
    const target = join(dir, 'target.json');
    writeFileSync(target, '{}');
    const link = join(dir, 'link.json');
    symlinkSync(target, link);
    expect(readUntrustedFile(link, { maxBytes: 1024 })).toEqual({ refused: 'ELOOP' });
    expect(isRefusal(readUntrustedFile(link, { maxBytes: 1024, followSymlink: true }))).toBe(false);
    const loop = join(dir, '.mcp.json');
    symlinkSync('.mcp.json', loop);
    expect(readUntrustedFile(loop, { maxBytes: 1024, followSymlink: true })).toEqual({ refused: 'ELOOP' });
  });

  it('says what the kernel said for a path too long, through a file, or absent; only the last two are "not found"', () => {
    const file = join(dir, 'config-file');
    writeFileSync(file, 'x');
    const tooLong = readUntrustedFile(`/${'a/'.repeat(2100)}x`, { maxBytes: 1024 });
    const throughFile = readUntrustedFile(join(file, '.claude.json'), { maxBytes: 1024 });
    const absent = readUntrustedFile(join(dir, 'absent'), { maxBytes: 1024 });
    expect([tooLong, throughFile, absent]).toEqual([
      { refused: 'ENAMETOOLONG' },
      { refused: 'ENOTDIR' },
      { refused: 'ENOENT' },
    ]);
    expect([tooLong, throughFile, absent].map((r) => isRefusal(r) && isNotFound(r))).toEqual([
      false,
      true,
      true,
    ]);
  });

  it.runIf(process.getuid?.() === 0)(
    'refuses a file of another owner than the one expected, accepts root’s',
    () => {
      const path = join(dir, 'transcript.jsonl');
      writeFileSync(path, '{}\n');
      chownSync(path, NOBODY, NOBODY);
      expect(readUntrustedFile(path, { maxBytes: 1024, owner: 1000 })).toEqual({ refused: 'foreign-owner' });
      expect(isRefusal(readUntrustedFile(path, { maxBytes: 1024, owner: NOBODY }))).toBe(false);
      chownSync(path, 0, 0);
      expect(isRefusal(readUntrustedFile(path, { maxBytes: 1024, owner: NOBODY }))).toBe(false);
    },
  );
});

describe('openUntrustedFile and readRange', () => {
  it('read a range of the file opened, no further than asked though the file grew', () => {
    const path = join(dir, 'transcript.jsonl');
    writeFileSync(path, 'one\ntwo\n');
    const opened = openUntrustedFile(path, { maxBytes: Infinity });
    expect(isRefusal(opened)).toBe(false);
    if (isRefusal(opened)) return;
    try {
      writeFileSync(path, 'one\ntwo\nthree\n');
      expect(String(readRange(opened, 4, opened.size))).toBe('two\n');
    } finally {
      closeUntrusted(opened);
    }
  });

  it('a path swapped for a FIFO after it was found is refused by what is opened, not what was seen', async () => {
    const path = join(dir, 'session.jsonl');
    writeFileSync(path, '{}\n');
    expect(entryKind(path)).toBe('file');
    rmSync(path);
    execFileSync('mkfifo', [path]);
    expect(await readInChild(path)).toEqual({ refused: 'not-a-regular-file' });
  });
});

describe('entryKind', () => {
  it('looks without following or opening, and never throws', () => {
    mkdirSync(join(dir, '.git'));
    symlinkSync('loop', join(dir, 'loop'));
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    expect(entryKind(join(dir, '.git'))).toBe('directory');
    expect(entryKind(join(dir, 'loop'))).toBe('other');
    expect(entryKind(join(dir, 'fifo'))).toBe('other');
    expect(entryKind(join(dir, 'loop', '.git'))).toEqual({ refused: 'ELOOP' });
    expect(entryKind(`/${'a/'.repeat(2100)}.git`)).toEqual({ refused: 'ENAMETOOLONG' });
  });
});

describe('listUntrustedDir', () => {
  it('lists up to its budget, refuses a folder past it, and says why it cannot list', () => {
    for (const name of ['a', 'b', 'c']) writeFileSync(join(dir, name), '');
    expect((listUntrustedDir(dir, 3) as string[]).sort()).toEqual(['a', 'b', 'c']);
    expect(listUntrustedDir(dir, 2)).toEqual({ refused: 'too-many-entries' });
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    symlinkSync('loop', join(dir, 'loop'));
    expect(listUntrustedDir(join(dir, 'fifo'), 10)).toEqual({ refused: 'ENOTDIR' });
    expect(listUntrustedDir(join(dir, 'loop'), 10)).toEqual({ refused: 'ELOOP' });
    expect(listUntrustedDir(join(dir, 'absent'), 10)).toEqual({ refused: 'ENOENT' });
  });
});
