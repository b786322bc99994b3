import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testCacheDir } from './test-cache';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** The machine's PATH without the checkout's directories (npx puts node_modules/.bin on it). */
export function machinePath(): string {
  return (process.env.PATH ?? '/usr/bin:/bin')
    .split(delimiter)
    .filter((d) => d && !d.startsWith(REPO))
    .join(delimiter);
}

/** The environment for the machine's npm: no npm_config_* from the npx that started vitest. */
function npmEnv(home: string): Record<string, string> {
  const env: Record<string, string> = { PATH: machinePath(), HOME: home };
  // Proxies and the certificates that let this machine reach the registry (without NODE_EXTRA_CA_CERTS
  // behind a TLS-inspecting proxy, npm retried silently until the test's timeout).
  const passed = ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'https_proxy', 'http_proxy', 'no_proxy'];
  passed.push('NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR');
  for (const k of passed) {
    if (process.env[k]) env[k] = process.env[k];
  }
  return env;
}

function run(cmd: string, args: string[], cwd: string, env: Record<string, string>): string {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 240_000 });
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.status ?? r.signal}:\n${r.stdout}\n${r.stderr}`);
  }
  return r.stdout;
}

/**
 * Packs the package the way README says, from a fresh `git clone` of the checkout's HEAD (what is
 * committed, not the working tree): a plain `npm pack`, whose `prepack` builds into the clone and
 * refuses a package without the CLI. Only node_modules comes from the checkout (linked). Returns the
 * tarball's path.
 */
export function packFromClone(work: string): string {
  const clone = join(work, 'src');
  const env = npmEnv(join(work, 'home'));
  // The checkout may belong to another user (CI runs the tests with sudo), which git refuses to clone
  // unless its global config says the directory is safe (`-c safe.directory` does not reach upload-pack).
  const gitConfig = join(work, 'gitconfig');
  writeFileSync(gitConfig, '[safe]\n\tdirectory = *\n');
  run('git', ['clone', '--quiet', REPO, clone], work, { ...env, GIT_CONFIG_GLOBAL: gitConfig });
  symlinkSync(join(REPO, 'node_modules'), join(clone, 'node_modules'));
  run('npm', ['pack'], clone, env);
  const tgz = readdirSync(clone).find((f) => f.endsWith('.tgz'));
  if (!tgz) throw new Error(`npm pack wrote no tarball in ${clone}`);
  return join(clone, tgz);
}

/** The machine's own npm settings (registry, CA, proxy) and cache, read outside the checkout. */
function machineNpmConfig(work: string): string[] {
  // The real HOME's: tests run with a temporary one (temp-home.ts), whose empty npm cache would make
  // the install download every dependency again.
  const env = npmEnv(process.env.CORRAL_TEST_REAL_HOME || homedir());
  const get = (key: string): string => run('npm', ['config', 'get', key], work, env).trim();
  return [
    `--globalconfig=${get('globalconfig')}`,
    `--userconfig=${get('userconfig')}`,
    `--cache=${get('cache')}`,
  ];
}

/**
 * `npm install -g --prefix <work>/prefix <tarball>` with the machine's npm and registry, from a
 * directory outside the checkout, with a temporary HOME: what a user's global install does (npm skips
 * the dependencies' install scripts here). Returns the prefix.
 */
export function installGlobally(work: string, tarball: string): string {
  const prefix = join(work, 'prefix');
  const home = join(work, 'npm-home');
  mkdirSync(home, { recursive: true });
  run(
    'npm',
    ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', ...machineNpmConfig(work), tarball],
    work,
    npmEnv(home),
  );
  return prefix;
}

/** The Node binary scripts/install-test-node.sh installs for `major`, or null when it is not there. */
export function cachedNode(major: number): string | null {
  const os = process.platform === 'darwin' ? 'darwin' : 'linux';
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const node = join(testCacheDir(), `node-${major}`, 'node_modules', `node-${os}-${arch}`, 'bin', 'node');
  return existsSync(node) ? node : null;
}

/** A PATH on which `node` is `nodeBinary` and `corral` is the installed one, and nothing of the checkout. */
export function runtimePath(nodeBinary: string, prefix: string): string {
  return [dirname(nodeBinary), join(prefix, 'bin'), '/usr/bin', '/bin'].join(delimiter);
}
