import { describe, expect, it } from 'vitest';
import { printable } from '../../main/cli/terminal-text';
import { visibleText } from '../../shared/visible-text';

describe('visibleText (the one escaping the CLI and the UI show commands through)', () => {
  it.each([
    ['plain text', 'npm run dev', 'npm run dev'],
    ['newline and tab', 'a\nb\tc', String.raw`a\nb\tc`],
    ['terminal escapes', '\x1b[2J\x07\x7f\x9b', String.raw`\x1b[2J\x07\x7f\x9b`],
    ['right-to-left override', 'invoice\u202efdp.exe', String.raw`invoice\u202efdp.exe`],
    [
      'bidi marks, embeddings and isolates',
      '\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069',
      String.raw`\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069`,
    ],
    [
      'zero-width space, joiners, word joiner, BOM',
      'a\u200bb\u200cc\u200dd\u2060e\ufeff',
      String.raw`a\u200bb\u200cc\u200dd\u2060e\ufeff`,
    ],
    [
      'soft hyphen, Mongolian vowel separator, line and paragraph separators',
      '\u00ad\u180e\u2028\u2029',
      String.raw`\xad\u180e\u2028\u2029`,
    ],
    ['visible non-ASCII stays', 'café ünïcode 日本 😀', 'café ünïcode 日本 😀'],
  ])('%s', (_name, text, shown) => {
    expect(visibleText(text)).toBe(shown);
    // The CLI prints exactly what the UI shows.
    expect(printable(text)).toBe(shown);
  });
});
