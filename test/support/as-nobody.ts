import { spawnSync } from 'node:child_process';
import { chownSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tempDirForTest } from './spawned-groups';

/** Runs what follows as `nobody`, with no groups: the other user the permission tests need. */
export const AS_NOBODY = ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'];
const NOBODY_UID = 65534;
const NOBODY_GID = 65534;

const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));

/**
 * Why `nobody` cannot run code from this checkout, or null when it can. A checkout below a directory
 * only its owner may enter (a 0700 home or mktemp directory) is out of another user's reach, and the
 * tests that drop to `nobody` are skipped there, saying so; so are they when the tests do not run as root.
 */
export const nobodyCannotRunCheckout: string | null = (() => {
  // setpriv changes user ids with setresuid(2), which only root (CAP_SETUID) may do: as anyone else it
  // fails whatever the checkout's permissions are.
  const uid = process.getuid?.();
  if (uid !== undefined && uid !== 0) return `setpriv needs root to run as nobody (this run is uid ${uid})`;
  const probe = spawnSync(
    AS_NOBODY[0]!,
    [...AS_NOBODY.slice(1), process.execPath, '-e', 'require("fs").accessSync(process.argv[1])', TSX],
    {
      encoding: 'utf8',
    },
  );
  if (probe.error)
    return `setpriv could not run (${(probe.error as NodeJS.ErrnoException).code ?? probe.error.message})`;
  if (probe.status !== 0)
    return `user nobody cannot read this checkout (${TSX}); move it below directories others may enter`;
  return null;
})();

export function noteSkippedAsNobody(file: string): void {
  if (nobodyCannotRunCheckout)
    console.log(`${file}: tests run as another user skipped, ${nobodyCannotRunCheckout}`);
}

/**
 * A HOME of nobody's own for a command run as `nobody` (where it may write its data directory, as
 * `corral kill` writes its stop note), removed after the test: never /tmp, where what it wrote stayed.
 */
export function tempHomeForNobody(): string {
  const home = tempDirForTest('corral-nobody-home-');
  chownSync(home, NOBODY_UID, NOBODY_GID);
  return home;
}
