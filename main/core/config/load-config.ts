import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Settings } from '../../../shared/model';
import { DEFAULT_SETTINGS } from './defaults';
import { validateSettings } from './validate-settings';

/** The config file's path: `CORRAL_CONFIG`, else `$XDG_CONFIG_HOME/corral/config.json` or the macOS equivalent. */
export function configPath(
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
  home = homedir(),
): string {
  if (env.CORRAL_CONFIG) return env.CORRAL_CONFIG;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Corral', 'config.json');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'corral', 'config.json');
}

export interface LoadedConfig {
  path: string;
  settings: Settings;
  /** Problems found, each naming the file and the field; defaults were used for those fields. */
  errors: string[];
}

const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The file's first MAX_CONFIG_BYTES + 1 bytes, or 'not-a-file'. Opened non-blocking and checked with
 * fstat first: a FIFO would block the open forever, and a device like /dev/zero never ends.
 */
function readConfigBytes(path: string): Buffer | 'not-a-file' {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) return 'not-a-file';
    const buf = Buffer.alloc(MAX_CONFIG_BYTES + 1);
    let length = 0;
    while (length < buf.length) {
      const n = readSync(fd, buf, length, buf.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return buf.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/** Reads and validates the config file. A missing file is not an error; a bad one never stops Corral. */
export function loadConfig(path: string = configPath()): LoadedConfig {
  let text: string;
  try {
    const bytes = readConfigBytes(path);
    if (bytes === 'not-a-file') {
      return { path, settings: DEFAULT_SETTINGS, errors: [`${path}: not a regular file; using defaults`] };
    }
    if (bytes.length > MAX_CONFIG_BYTES) {
      return { path, settings: DEFAULT_SETTINGS, errors: [`${path}: larger than 1 MiB; using defaults`] };
    }
    // Some editors start UTF-8 files with a byte order mark, which JSON.parse rejects.
    text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { path, settings: DEFAULT_SETTINGS, errors: [] };
    return {
      path,
      settings: DEFAULT_SETTINGS,
      errors: [`${path}: cannot read (${code ?? String(err)}); using defaults`],
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return {
      path,
      settings: DEFAULT_SETTINGS,
      errors: [`${path}: not valid JSON (${(err as Error).message}); using defaults`],
    };
  }
  const { settings, errors } = validateSettings(parsed);
  return { path, settings, errors: errors.map((e) => `${path}: ${e}; using the default`) };
}
