// A count with a comma between thousands ("14,550"), as `toLocaleString('en-US')` writes it, without
// Intl: on a Node built with full ICU, the first locale-aware call maps megabytes of ICU data into a
// long-lived `corral watch` or `serve` for a comma.

const BETWEEN_THOUSANDS = /\B(?=(\d{3})+(?!\d))/g;

/** `n` rounded to a whole number, thousands separated by commas: 0, 999, 1,000, -14,550. */
export function withThousands(n: number): string {
  const whole = Math.round(n);
  if (!Number.isFinite(whole) || Math.abs(whole) >= 1e21) return whole.toLocaleString('en-US');
  return (Object.is(whole, -0) ? '-0' : String(whole)).replace(BETWEEN_THOUSANDS, ',');
}
