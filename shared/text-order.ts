// Orders for sorting text that needs no locale: `localeCompare` loads ICU's collation data (about
// 3 MB resident on a full-ICU Node) into a long-lived `corral watch` or `serve` on its first call.

/** UTF-16 code unit order, as `Array.prototype.sort` compares strings (ISO dates, agent ids). */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * IP addresses as text, in the order they were always shown (the `localeCompare` of ICU's root
 * collation, where punctuation sorts before digits and `:` before `.`): `::1` before `2001:db8::1`,
 * `1.2.3.4` before `10.0.0.1`. Exact for what addresses are written with: digits, lowercase hex, `:`, `.`.
 */
export function compareAddresses(a: string, b: string): number {
  return compareCodeUnits(collationKey(a), collationKey(b));
}

/** `:` and `.` moved below the digits, `:` first, leaving the rest in code unit order. */
function collationKey(address: string): string {
  return address.replaceAll(':', '\u0001').replaceAll('.', '\u0002');
}
