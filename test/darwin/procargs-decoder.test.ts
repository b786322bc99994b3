import { describe, expect, it } from 'vitest';
import { decodeProcArgs2 } from '../../main/core/sampling/darwin/procargs-decoder';
import { procArgs2 } from './darwin-buffers';
import { parsePsAx, recordedLines } from './recorded-ps';

const MARKERS = new Set(['CLAUDECODE', 'CLAUDE_CODE_SESSION_ID', 'CODEX_THREAD_ID']);
const HELPER_PATH =
  '/Applications/Visual Studio Code.app/Contents/Frameworks/Code Helper (Renderer).app/Contents/MacOS/Code Helper (Renderer)';

function decode(buf: Buffer, keys: ReadonlySet<string> = MARKERS) {
  return decodeProcArgs2(buf, buf.length, keys);
}

describe('decodeProcArgs2', () => {
  it('recovers the recorded VS Code helpers’ argv: a path with spaces and parentheses, a script with spaces', () => {
    for (const line of recordedLines('ps-ax-vscode-101555.txt')) {
      const { command } = parsePsAx(line);
      expect(command.startsWith(`${HELPER_PATH} -e `)).toBe(true);
      const script = command.slice(HELPER_PATH.length + ' -e '.length);
      const buf = procArgs2(HELPER_PATH, [HELPER_PATH, '-e', script], ['HOME=/Users/me', 'CLAUDECODE=1']);
      const out = decode(buf);
      expect(out?.argv).toEqual([HELPER_PATH, '-e', script]);
      expect(out?.argv.join(' ')).toBe(command);
    }
  });

  it('extracts only the asked marker keys from the environment after argv', () => {
    const buf = procArgs2(
      '/bin/bash',
      ['/bin/bash', '-c', 'sleep 1000 &'],
      [
        'PATH=/usr/bin:/bin',
        'CLAUDECODE=1',
        'CLAUDE_CODE_SESSION_ID=6f1c1c1e-aaaa',
        'SECRET=x=y',
        'CODEX_THREAD_ID=',
      ],
    );
    expect(decode(buf)).toEqual({
      argv: ['/bin/bash', '-c', 'sleep 1000 &'],
      markers: { CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: '6f1c1c1e-aaaa', CODEX_THREAD_ID: '' },
      environReadable: true,
    });
  });

  it('escapes argv bytes that are not UTF-8 and keeps valid multibyte text', () => {
    const latin1 = Uint8Array.from([0x2f, 0x74, 0x6d, 0x70, 0x2f, 0x63, 0x61, 0x66, 0xe9]); // "/tmp/café" in Latin-1
    const buf = procArgs2('/bin/cat', ['cat', latin1, 'naïve ✓', Uint8Array.from([0xff, 0xfe])], ['LANG=C']);
    expect(decode(buf)?.argv).toEqual(['cat', '/tmp/caf\\xe9', 'naïve ✓', '\\xff\\xfe']);
  });

  it('does not read the kernel’s apple strings after the environment as environment', () => {
    const buf = procArgs2(
      '/usr/bin/yes',
      ['yes'],
      ['CLAUDECODE=1'],
      ['executable_path=/usr/bin/yes', 'CLAUDE_CODE_SESSION_ID=fake'],
    );
    expect(decode(buf)?.markers).toEqual({ CLAUDECODE: '1' });
  });

  it('stops the environment at apple strings that follow it with no padding (an aligned end)', () => {
    const apple = ['pfz=0x7ffff000', 'stack_guard=0x1', 'CLAUDE_CODE_SESSION_ID=apple', 'th_port=0x103'];
    // One of eight lengths ends the environment on an 8-byte boundary: no NUL before the apple strings.
    const buffers = Array.from({ length: 8 }, (_, k) =>
      procArgs2('/usr/bin/yes', ['yes'], ['CLAUDECODE=1', `PAD=${'x'.repeat(k)}`], apple),
    );
    const unpadded = buffers.filter((b) => b[b.indexOf('pfz=') - 2] !== 0);
    expect(unpadded).toHaveLength(1);
    for (const buf of buffers) {
      expect(decode(buf)?.markers).toEqual({ CLAUDECODE: '1' });
      expect(decode(buf)?.argv).toEqual(['yes']);
    }
  });

  it('reads an environment variable that only looks like an apple key when it is not at alignment', () => {
    const buffers = Array.from({ length: 8 }, (_, k) =>
      procArgs2('/bin/sh', ['sh'], [`A=${'x'.repeat(k)}`, 'th_port=mine', 'CLAUDECODE=1']),
    );
    const read = buffers.filter((b) => decode(b)?.markers.CLAUDECODE === '1');
    // Only where th_port= happens to start on the boundary is it taken for the apple strings.
    expect(read).toHaveLength(7);
  });

  it('calls a hidden environment unreadable rather than free of markers', () => {
    const buf = procArgs2('/usr/libexec/restricted', ['restricted', '--flag'], []);
    expect(decode(buf)).toEqual({ argv: ['restricted', '--flag'], markers: {}, environReadable: false });
  });

  it('handles argc 0 and ignores bytes past the reported length in a reused buffer', () => {
    const real = procArgs2('/bin/sh', [], ['CLAUDECODE=1']);
    const reused = Buffer.alloc(4096, 0x41);
    real.copy(reused);
    expect(decodeProcArgs2(reused, real.length, MARKERS)).toEqual({
      argv: [],
      markers: { CLAUDECODE: '1' },
      environReadable: true,
    });
  });

  it('returns what is there when the buffer ends early', () => {
    const full = procArgs2('/bin/sleep', ['sleep', '1000'], ['CLAUDECODE=1']);
    const cut = full.subarray(0, full.indexOf('1000') + 2);
    expect(decode(cut)?.argv).toEqual(['sleep', '10']);
  });

  it('refuses buffers without the documented shape', () => {
    expect(decode(Buffer.alloc(2))).toBeNull();
    const negative = Buffer.alloc(16);
    negative.writeInt32LE(-1);
    expect(decode(negative)).toBeNull();
  });
});
