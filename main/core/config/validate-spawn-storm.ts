import type { Settings } from '../../../shared/model';
import { NUMERIC_SETTINGS } from '../../../shared/settings-table';
import { numberIn, unknownKeys } from './validate-settings';

type SpawnStormSettings = NonNullable<Settings['spawnStorm']>;

/** The `spawnStorm` object of the config: each bad key named, and its default kept. */
export function validateSpawnStorm(
  input: unknown,
  base: SpawnStormSettings,
  errors: string[],
): SpawnStormSettings {
  const out = { ...base };
  if (input === undefined) return out;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    errors.push('spawnStorm: expected an object');
    return out;
  }
  const obj = input as Record<string, unknown>;
  unknownKeys(
    obj,
    ['birthsPerMinute', 'repeatsPerMinute', 'windowSeconds', 'members'],
    'spawnStorm.',
    errors,
  );
  out.birthsPerMinute = numberIn(
    obj.birthsPerMinute,
    'spawnStorm.birthsPerMinute',
    NUMERIC_SETTINGS.birthsPerMinute,
    out.birthsPerMinute,
    errors,
  );
  out.repeatsPerMinute = numberIn(
    obj.repeatsPerMinute,
    'spawnStorm.repeatsPerMinute',
    NUMERIC_SETTINGS.repeatsPerMinute,
    out.repeatsPerMinute,
    errors,
  );
  out.windowSeconds = numberIn(
    obj.windowSeconds,
    'spawnStorm.windowSeconds',
    NUMERIC_SETTINGS.spawnWindowSeconds,
    out.windowSeconds,
    errors,
  );
  out.members = numberIn(
    obj.members,
    'spawnStorm.members',
    NUMERIC_SETTINGS.spawnMembers,
    out.members,
    errors,
  );
  return out;
}
