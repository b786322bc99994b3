/** A process name chosen to break parsers, and what Corral must report for it. */
export interface HostileName {
  label: string;
  /** The full name: the executable's file name, or with `viaPrctl` the name the process gives itself. */
  bytes: Buffer;
  /** comm as Corral must show it: the first 15 bytes, invalid UTF-8 as \xNN. */
  comm: string;
  /** argv[0] (the full name) as Corral must show it; default: the bytes as UTF-8. */
  argv0?: string;
  /** Set by prctl(PR_SET_NAME) after exec, for bytes no file name can hold ('/'). */
  viaPrctl?: boolean;
}

const b = (text: string): Buffer => Buffer.from(text, 'utf8');
const raw = (...parts: Array<string | number[]>): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? b(p) : Buffer.from(p))));

export const HOSTILE_NAMES: HostileName[] = [
  { label: 'fake fields', bytes: b(') R 1 1 1 ('), comm: ') R 1 1 1 (' },
  { label: 'fake zombie of init', bytes: b('x) Z 1 1 1 0 0'), comm: 'x) Z 1 1 1 0 0' },
  { label: 'newline', bytes: b('a\nb) S 1 1 1'), comm: 'a\nb) S 1 1 1' },
  { label: 'tabs', bytes: b('tab\there\t)('), comm: 'tab\there\t)(' },
  { label: 'carriage return', bytes: b('ok\r) T 1 1 1'), comm: 'ok\r) T 1 1 1' },
  { label: 'only spaces', bytes: b('   '), comm: '   ' },
  { label: 'open parens, truncated', bytes: b('('.repeat(18)), comm: '('.repeat(15) },
  { label: 'close parens, truncated', bytes: b(')'.repeat(18)), comm: ')'.repeat(15) },
  { label: '15-byte truncation', bytes: b('averyveryverylongname-over-15'), comm: 'averyveryverylo' },
  { label: 'exactly 15 bytes of fields', bytes: b('0 (sleep) S 0 0'), comm: '0 (sleep) S 0 0' },
  {
    label: 'invalid UTF-8',
    bytes: raw([0xff, 0xfe], '-sleep'),
    comm: '\\xff\\xfe-sleep',
    argv0: '\\xff\\xfe-sleep',
  },
  { label: 'UTF-8 cut by truncation', bytes: b('é'.repeat(9)), comm: `${'é'.repeat(7)}\\xc3` },
  { label: 'emoji cut by truncation', bytes: b('🙂'.repeat(4)), comm: '🙂🙂🙂\\xf0\\x9f\\x99' },
  { label: 'looks like an option', bytes: b('-1'), comm: '-1' },
  { label: 'a bare number', bytes: b('1'), comm: '1' },
  { label: 'shell metacharacters', bytes: b('$(reboot);`id`'), comm: '$(reboot);`id`' },
  { label: 'terminal escapes', bytes: b('\x1b[2J\x1b[31mred'), comm: '\x1b[2J\x1b[31mred' },
  { label: 'C1 control (CSI)', bytes: b('\u009b2J\u007fdel'), comm: '\u009b2J\u007fdel' },
  {
    label: 'lone invalid bytes',
    bytes: raw([0x80, 0xc0, 0xaf, 0xed, 0xa0, 0x80]),
    comm: '\\x80\\xc0\\xaf\\xed\\xa0\\x80',
    argv0: '\\x80\\xc0\\xaf\\xed\\xa0\\x80',
  },
  { label: 'slash and fields (prctl)', bytes: b('a/b) R 1 1 ('), comm: 'a/b) R 1 1 (', viaPrctl: true },
  {
    label: 'kernel thread look-alike (prctl)',
    bytes: b('[kworker/0:1]'),
    comm: '[kworker/0:1]',
    viaPrctl: true,
  },
  { label: 'newlines only (prctl)', bytes: b('\n\n\n)\n'), comm: '\n\n\n)\n', viaPrctl: true },
];

/** The extra arguments every hostile process gets: fields, a newline, an empty one, invalid UTF-8. */
export const HOSTILE_ARGS: Array<{ bytes: Buffer; shown: string }> = [
  { bytes: b(' ) R 1 1 '), shown: ' ) R 1 1 ' },
  { bytes: b('new\nline'), shown: 'new\nline' },
  { bytes: b(''), shown: '' },
  { bytes: Buffer.from([0xff]), shown: '\\xff' },
];

/** A bash word that expands to exactly these bytes: $'\xHH...' (bash's ANSI-C quoting). */
export function bashBytes(bytes: Buffer): string {
  return `$'${[...bytes].map((c) => `\\x${c.toString(16).padStart(2, '0')}`).join('')}'`;
}
