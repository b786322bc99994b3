import { createHash, timingSafeEqual } from 'node:crypto';
import { isRefusal, readUntrustedFile } from '../core/files/untrusted-file';
import { UsageError } from '../common/usage-error';

/** Short tokens can be guessed by anyone who can reach the port. */
const MIN_TOKEN_LENGTH = 16;

export const TOKEN_ENV = 'CORRAL_METRICS_TOKEN';

function checked(token: string, from: string): string {
  if (token.length < MIN_TOKEN_LENGTH)
    throw new UsageError(
      `${from}: the token must be at least ${MIN_TOKEN_LENGTH} characters (try: openssl rand -hex 24)`,
    );
  if (/\s/.test(token)) throw new UsageError(`${from}: the token must not contain whitespace`);
  return token;
}

/** A token file is a secret: a regular file, owned by whoever runs Corral, readable by nobody else. */
function readTokenFile(path: string): string {
  // Checked on the descriptor read, not the path (a file swapped after a check); a symlink to it is
  // followed, as mounted secrets are links.
  const stat = readUntrustedFile(path, { maxBytes: 64 * 1024, followSymlink: true });
  if (isRefusal(stat)) {
    if (stat.refused === 'not-a-regular-file')
      throw new UsageError(`--token-file ${path}: not a regular file`);
    if (stat.refused === 'too-large') throw new UsageError(`--token-file ${path}: too large for a token`);
    throw new UsageError(`--token-file ${path}: cannot read it (${stat.refused})`);
  }
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid)
    throw new UsageError(
      `--token-file ${path}: owned by uid ${stat.uid}, not by the user running Corral (${uid})`,
    );
  if ((stat.mode & 0o077) !== 0)
    throw new UsageError(
      `--token-file ${path}: readable or writable by group or others (mode ${(stat.mode & 0o777).toString(8)}); ` +
        `run chmod 600 ${path}`,
    );
  return checked(stat.bytes.toString('utf8').replace(/\r?\n$/, ''), `--token-file ${path}`);
}

/** The bearer token from `--token`, `--token-file` or $CORRAL_METRICS_TOKEN (in that order); null when none. */
export function resolveToken(
  options: { token?: string; tokenFile?: string },
  env: NodeJS.ProcessEnv,
): string | null {
  if (options.token !== undefined && options.tokenFile !== undefined)
    throw new UsageError('give --token or --token-file, not both');
  if (options.token !== undefined) return checked(options.token, '--token');
  if (options.tokenFile !== undefined) return readTokenFile(options.tokenFile);
  const fromEnv = env[TOKEN_ENV];
  return fromEnv === undefined || fromEnv === '' ? null : checked(fromEnv, `$${TOKEN_ENV}`);
}

/** Does `Authorization: Bearer <token>` carry this token? Compared in constant time. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const m = /^Bearer +(\S+)\s*$/i.exec(authorization ?? '');
  if (!m) return false;
  const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(m[1]!), digest(token));
}
