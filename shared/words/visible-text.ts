/**
 * Characters that change how the text around them reads without showing themselves: C0 and C1
 * controls and DEL (terminal escapes), the soft hyphen, bidirectional marks, embeddings, overrides
 * and isolates (U+202E makes a command read reversed), zero-width spaces and joiners, the word joiner
 * and invisible operators, deprecated format characters, line and paragraph separators, the BOM, and
 * the tag characters U+E0000–E007F (invisible ASCII: text a reader never sees but a model reads; a
 * subdivision flag's tags show as escapes too).
 */
const HIDDEN =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\u{e0000}-\u{e007f}]/gu;

/**
 * The text with every hidden character shown as a visible escape (`\n`, `\t`, `\x1b`, `\u202e`,
 * `\u{e0041}`), so what is displayed is what is there. The CLI prints commands through it and the UI
 * renders them through it; pure, so both show the same thing.
 */
export function visibleText(text: string): string {
  return text.replace(HIDDEN, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    const code = c.codePointAt(0)!;
    if (code > 0xffff) return `\\u{${code.toString(16)}}`;
    return code > 0xff
      ? `\\u${code.toString(16).padStart(4, '0')}`
      : `\\x${code.toString(16).padStart(2, '0')}`;
  });
}
