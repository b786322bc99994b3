import { describe, expect, it } from 'vitest';
import { printable } from '../../main/cli/terminal-text';
import { visibleText } from '../../shared/words/visible-text';

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
    [
      'Unicode tag characters (invisible ASCII: "ignore" spelled in tags), first and last of the block',
      'ls\u{E0069}\u{E0067}\u{E006E}\u{E006F}\u{E0072}\u{E0065}\u{E0000}\u{E007F}',
      String.raw`ls\u{e0069}\u{e0067}\u{e006e}\u{e006f}\u{e0072}\u{e0065}\u{e0000}\u{e007f}`,
    ],
    [
      'a flag emoji keeps its tag sequence visible as escapes',
      '🏴\u{E0067}\u{E007F}',
      String.raw`🏴\u{e0067}\u{e007f}`,
    ],
    ['visible non-ASCII stays', 'café ünïcode 日本 😀', 'café ünïcode 日本 😀'],
    ['characters beside the tag block stay', '\u{DFFFF}\u{E0080}', '\u{DFFFF}\u{E0080}'],
  ])('%s', (_name, text, shown) => {
    expect(visibleText(text)).toBe(shown);
    // The CLI prints exactly what the UI shows.
    expect(printable(text)).toBe(shown);
  });
});
