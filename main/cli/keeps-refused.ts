/** Said once on stderr when the keep list is refused (a link, another user's, malformed): none is shown kept. */
export function keepsRefused(message: string): void {
  process.stderr.write(`corral: ${message}\n`);
}
