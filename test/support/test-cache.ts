import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * `${XDG_CACHE_HOME:-~/.cache}/corral-test` of the real user, where scripts/install-test-deps.sh and
 * install-test-node.sh put the agents' CLIs and the Node binaries. Tests run with a temporary HOME and
 * XDG_CACHE_HOME (test/support/temp-home.ts), which passes the real cache as CORRAL_TEST_CACHE.
 */
export function testCacheDir(): string {
  const cache = process.env.CORRAL_TEST_CACHE || process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, 'corral-test');
}
