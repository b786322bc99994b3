import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';

/**
 * Why this build cannot keep itself current, or null when it can. electron-updater replaces the app
 * only where that is safe and its own: on macOS a packaged app signed with a Developer ID (Squirrel.Mac
 * refuses others, and an ad-hoc or unsigned build would not pass Gatekeeper after the swap); on Linux the
 * AppImage (APPIMAGE is set by its runtime); a deb is updated by the package manager.
 */
export function updateUnsupported(
  packaged: boolean,
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
  execPath: string,
  signature: (bundle: string) => string = readSignature,
): string | null {
  if (!packaged) return 'not a packaged build';
  if (platform === 'linux') {
    return env.APPIMAGE ? null : 'not an AppImage: your package manager updates this install';
  }
  if (platform === 'darwin') {
    // <Corral.app>/Contents/MacOS/Corral
    const bundle = dirname(dirname(dirname(execPath)));
    return /^Authority=Developer ID Application: /m.test(signature(bundle))
      ? null
      : 'an unsigned build (no Developer ID signature)';
  }
  return `no updates on ${platform}`;
}

/** `codesign -dv --verbose=2` describes the signature on stderr; empty when there is none. */
function readSignature(bundle: string): string {
  const r = spawnSync('codesign', ['-dv', '--verbose=2', bundle], { encoding: 'utf8', timeout: 10_000 });
  return r.status === 0 ? r.stderr : '';
}
