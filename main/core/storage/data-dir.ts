import { posix, win32 } from 'node:path';

/**
 * Where Corral keeps its data: `CORRAL_DATA_DIR` when set, else the platform's per-user data folder.
 * Pure: everything it depends on is passed in.
 */
export function resolveDataDir(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
  homedir: string,
): string {
  const explicit = env.CORRAL_DATA_DIR?.trim();
  if (explicit) return explicit;
  if (platform === 'darwin') return posix.join(homedir, 'Library', 'Application Support', 'Corral');
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA?.trim();
    return win32.join(local || win32.join(homedir, 'AppData', 'Local'), 'Corral');
  }
  // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
  const xdg = env.XDG_DATA_HOME?.trim();
  if (xdg && posix.isAbsolute(xdg)) return posix.join(xdg, 'corral');
  return posix.join(homedir, '.local', 'share', 'corral');
}
