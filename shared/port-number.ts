/**
 * The one reading of a TCP port number a person typed: decimal digits only (at most five), 1..65535, or
 * 0 too where `allowZero` (a server asked to listen on any free port). Null for anything else, `''`
 * included.
 */
export function parsePortNumber(text: string, { allowZero = false } = {}): number | null {
  if (!/^\d{1,5}$/.test(text)) return null;
  const port = Number(text);
  return port <= 65535 && (allowZero || port >= 1) ? port : null;
}
