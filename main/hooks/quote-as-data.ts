import { visibleText } from '../../shared/words/visible-text';

/** One character as it may appear inside the quotes: nothing in it can close them, hide, or read as a tag. */
function escapeChar(c: string): string {
  if (c === '\\') return '\\\\';
  if (c === '"') return '\\"';
  if (c === '<') return '\\u003c';
  if (c === '>') return '\\u003e';
  return visibleText(c);
}

/**
 * Text another program chose (a leftover's command line), quoted for a model's context as data: a
 * JSON-style string whose control, bidirectional and zero-width characters are visible escapes and
 * whose angle brackets are escaped, so no `</system-reminder>` or terminal escape inside it acts as
 * anything; at most `max` characters between the quotes, the rest counted, never shown.
 */
export function quoteAsData(text: string, max = 200): string {
  let out = '';
  let taken = 0;
  const chars = [...text];
  for (const c of chars) {
    const piece = escapeChar(c);
    if (out.length + piece.length > max) break;
    out += piece;
    taken++;
  }
  const cut = chars.length - taken;
  return cut > 0 ? `"${out}" (${cut} more characters not shown)` : `"${out}"`;
}
