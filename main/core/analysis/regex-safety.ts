/** Regexes over user text are matched on its first and last 4 KB: a regex over 2 MB of argv could stall. */
const EDGE = 4096;

export function boundedText(text: string): string {
  return text.length <= 2 * EDGE ? text : `${text.slice(0, EDGE)} ${text.slice(-EDGE)}`;
}
