import { readFileSync } from 'node:fs';
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

/** Reads and validates the config file. A missing file is not an error; a bad one never stops Corral. */
export function loadConfig(path: string = configPath()): LoadedConfig {
  let text: string;
  try {
    const bytes = readFileSync(path);
    if (bytes.length > MAX_CONFIG_BYTES) {
      return { path, settings: DEFAULT_SETTINGS, errors: [`${path}: larger than 1 MiB; using defaults`] };
    }
    text = bytes.toString('utf8');
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
