import { join } from 'node:path';

/** Where a running Corral answers command hooks: a Unix socket in the user's own 0700 data directory. */
export function hookSocketPath(dataDir: string): string {
  return join(dataDir, 'hooks', 'hook.sock');
}

/** The longest path a Unix socket address holds (sockaddr_un's sun_path, less its final NUL). */
export function maxSocketPathBytes(platform: NodeJS.Platform = process.platform): number {
  return platform === 'linux' ? 107 : 103;
}

/** Why `path` cannot be a Unix socket's address, or null when it can. Pure. */
export function socketPathTooLong(path: string, platform: NodeJS.Platform = process.platform): string | null {
  const bytes = Buffer.byteLength(path);
  const max = maxSocketPathBytes(platform);
  if (bytes <= max) return null;
  return `the hook socket ${path} is ${bytes} bytes long, more than the ${max} a Unix socket address holds: set CORRAL_DATA_DIR to a shorter directory; meanwhile each hook call starts Corral on its own, which is slower`;
}
