import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every test runs with a temporary HOME and XDG directories: the test process, its workers and every
 * child they start (which inherit the environment, or take HOME from it through cleanEnv and runCli)
 * write Corral's data, config and agents' settings there, never in the real user's. Vitest starts its
 * workers after this global setup, with this environment. The real cache stays reachable as
 * CORRAL_TEST_CACHE for the agent CLIs scripts/install-test-deps.sh put there.
 */
export default function setup(): () => void {
  // Vitest runs a global setup once per project: the first one made the home for the whole run.
  if (process.env.CORRAL_TEST_HOME) return () => {};
  const realHome = homedir();
  const realCache = process.env.XDG_CACHE_HOME || join(realHome, '.cache');
  const root = mkdtempSync(join(tmpdir(), 'corral-test-home-'));
  const home = join(root, 'home');
  const dirs = {
    HOME: home,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The test files' own temporary directories (test/support/temp-dir-per-file.ts) go below the run's,
  // so a file whose worker dies before its cleanup leaves nothing behind the run. Like /tmp, anyone
  // may reach them (the tests that run a child as `nobody`); the home beside them stays 0700.
  const tmpRoot = join(root, 'tmp');
  mkdirSync(tmpRoot);
  chmodSync(tmpRoot, 0o1777);
  chmodSync(root, 0o755);
  Object.assign(process.env, dirs, {
    CORRAL_TEST_TMP_ROOT: tmpRoot,
    CORRAL_TEST_SYSTEM_TMPDIR: tmpdir(),
    CORRAL_TEST_HOME: home,
    CORRAL_TEST_CACHE: realCache,
    // The packaging test installs with the machine's npm settings and cache, read from the real HOME.
    CORRAL_TEST_REAL_HOME: realHome,
  });
  // Variables that would point Corral or an agent back at real directories.
  for (const key of ['CORRAL_DATA_DIR', 'CORRAL_CONFIG', 'CLAUDE_CONFIG_DIR', 'CODEX_HOME'])
    delete process.env[key];
  return () => rmSync(root, { recursive: true, force: true });
}
