import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitNul } from '../../main/core/sampling/linux/nul-fields';
import { decodeName, parseStat } from '../../main/core/sampling/linux/stat-parser';

const RUNS = 2000;
const BACKSLASH = 0x5c;

/** Bytes a process can put in its name (anything but NUL), weighted towards what breaks naive parsers. */
const nameByte = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(0x28, 0x29, 0x20, 0x0a, 0x09, 0x0d, 0xff, 0xfe, 0xc3, 0x80) },
  { weight: 1, arbitrary: fc.constantFrom(...Buffer.from(' R 1 1 1 ')) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 255 }) },
);
const nameBytes = fc.array(nameByte, { maxLength: 64 }).map((bytes) => Uint8Array.from(bytes));

const count = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });
const pidNumber = fc.integer({ min: 1, max: 4_194_304 });

/** Every field of a stat line (proc(5)), fields 3..52, with the ones Corral reads named. */
const statFields = fc.record({
  pid: pidNumber,
  state: fc.constantFrom('R', 'S', 'D', 'Z', 'T', 't', 'X', 'I', 'P', 'W', 'K'),
  ppid: fc.integer({ min: 0, max: 4_194_304 }),
  pgid: fc.integer({ min: 0, max: 4_194_304 }),
  sid: fc.integer({ min: 0, max: 4_194_304 }),
  ttyNr: fc.integer({ min: 0, max: 0x7fffffff }),
  utime: count,
  stime: count,
  start: count,
  rss: count,
  // The fields in between may be negative (tpgid -1, priority, nice) and must not disturb the rest.
  filler: fc.array(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), { minLength: 53, maxLength: 53 }),
});

type StatInput = typeof statFields extends fc.Arbitrary<infer T> ? T : never;

function statLine(f: StatInput, name: Uint8Array): Buffer {
  const at = (n: number): number => f.filler[n]!;
  const after = [
    f.ppid,
    f.pgid,
    f.sid,
    f.ttyNr, // 4..7
    at(8),
    at(9),
    at(10),
    at(11),
    at(12),
    at(13), // 8..13
    f.utime,
    f.stime, // 14, 15
    at(16),
    at(17),
    at(18),
    at(19),
    at(20),
    at(21), // 16..21
    f.start,
    at(23),
    f.rss, // 22..24
    ...f.filler.slice(25, 53), // 25..52
  ];
  return Buffer.concat([Buffer.from(`${f.pid} (`), name, Buffer.from(`) ${f.state} ${after.join(' ')}\n`)]);
}

/** Reverses decodeName's escaping: `\xNN` back to the byte, every other character to its UTF-8. */
function unescape(text: string): Buffer {
  const parts: Buffer[] = [];
  const re = /\\x([0-9a-f]{2})/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    parts.push(Buffer.from(text.slice(last, m.index), 'utf8'), Buffer.from([parseInt(m[1]!, 16)]));
    last = m.index + m[0].length;
  }
  parts.push(Buffer.from(text.slice(last), 'utf8'));
  return Buffer.concat(parts);
}

describe('parseStat against synthesized stat lines (property)', () => {
  it('reads every field Corral uses, whatever bytes the name holds', () => {
    fc.assert(
      fc.property(statFields, nameBytes, fc.uint8Array({ maxLength: 64 }), (f, name, garbage) => {
        const line = statLine(f, name);
        // The sampler parses a reused buffer: bytes past `length` are left over from earlier reads.
        const buf = Buffer.concat([line, Buffer.from(') 1 2 3 ('), garbage]);
        const parsed = parseStat(buf, line.length);
        expect(parsed).toEqual({
          pid: f.pid,
          name: expect.any(String),
          state: f.state,
          ppid: f.ppid,
          pgid: f.pgid,
          sid: f.sid,
          ttyNr: f.ttyNr,
          utimeTicks: f.utime,
          stimeTicks: f.stime,
          childTicks: f.filler[16]! + f.filler[17]!,
          threads: f.filler[20],
          startTicks: f.start,
          rssPages: f.rss,
          exitSignal: f.filler[38],
        });
        if (!name.includes(BACKSLASH)) expect(unescape(parsed!.name).equals(Buffer.from(name))).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('never returns a record from a line cut short before the last field it needs', () => {
    fc.assert(
      fc.property(statFields, nameBytes, fc.double({ min: 0, max: 1, noNaN: true }), (f, name, where) => {
        const line = statLine(f, name);
        // Cut anywhere before the space that precedes field 24 (rss): the line lacks a needed field.
        const rssSpace =
          line.length - 1 - `${f.filler.slice(25, 53).join(' ')}\n`.length - String(f.rss).length - 1;
        const cut = Math.floor(where * rssSpace);
        expect(parseStat(line, cut)).toBeNull();
      }),
      { numRuns: RUNS },
    );
  });

  it('never throws on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        const parsed = parseStat(bytes);
        if (parsed) {
          expect(Number.isInteger(parsed.pid) && parsed.pid >= 0).toBe(true);
          expect(parsed.state).toHaveLength(1);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe('decodeName and splitNul (property)', () => {
  it('decodeName never throws, and is lossless for names without a backslash', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const text = decodeName(bytes);
        expect(typeof text).toBe('string');
        if (!bytes.includes(BACKSLASH)) expect(unescape(text).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('decodeName round-trips valid UTF-8 exactly', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        expect(decodeName(Buffer.from(text, 'utf8'))).toBe(text);
      }),
      { numRuns: RUNS },
    );
  });

  it('escapes each invalid byte as \\xNN and keeps the valid text around it', () => {
    expect(decodeName(Buffer.from([0xff, 0xfe, 0x2d, 0x73]))).toBe('\\xff\\xfe-s');
    // A multi-byte character cut by the kernel's 15-byte limit on comm.
    expect(decodeName(Buffer.concat([Buffer.from('ééééééé'), Buffer.from([0xc3])]))).toBe('ééééééé\\xc3');
    expect(decodeName(Buffer.concat([Buffer.from('🙂🙂🙂'), Buffer.from([0xf0, 0x9f, 0x99])]))).toBe(
      '🙂🙂🙂\\xf0\\x9f\\x99',
    );
    // Overlong and surrogate encodings are not valid UTF-8.
    expect(decodeName(Buffer.from([0xc0, 0xaf]))).toBe('\\xc0\\xaf');
    expect(decodeName(Buffer.from([0xed, 0xa0, 0x80]))).toBe('\\xed\\xa0\\x80');
  });

  it('splitNul returns exactly the strings a NUL-separated file holds', () => {
    const arg = fc.string({ unit: 'binary', maxLength: 20 }).filter((s) => !s.includes('\0'));
    fc.assert(
      fc.property(fc.array(arg, { maxLength: 12 }), fc.uint8Array({ maxLength: 16 }), (args, garbage) => {
        const file = Buffer.from(args.map((a) => `${a}\0`).join(''), 'utf8');
        const buf = Buffer.concat([file, garbage]);
        expect(splitNul(buf, file.length)).toEqual(args);
      }),
      { numRuns: RUNS },
    );
  });

  it('splitNul never throws on arbitrary bytes and never yields a NUL', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        for (const s of splitNul(bytes, bytes.length)) expect(s.includes('\0')).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });
});
