// Small hand-written checks for request payloads. Each returns an error message or null, so a
// validator can stop at the first problem and name the exact field.
import { GROUP_ID_PATTERN } from '../../shared/group-id';
import { MAX_GROUP_ID_LENGTH } from './limits';

export type Check = (value: unknown, path: string) => string | null;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export const bool: Check = (value, path) => (typeof value === 'boolean' ? null : `${path} must be a boolean`);

export const str: Check = (value, path) => (typeof value === 'string' ? null : `${path} must be a string`);

export function finiteNumber({
  min,
  max,
  integer = false,
}: { min?: number; max?: number; integer?: boolean } = {}): Check {
  return (value, path) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return `${path} must be a finite number`;
    if (integer && !Number.isInteger(value)) return `${path} must be an integer`;
    if (min !== undefined && value < min) return `${path} must be >= ${min}`;
    if (max !== undefined && value > max) return `${path} must be <= ${max}`;
    return null;
  };
}

export function nullable(check: Check): Check {
  return (value, path) => (value === null ? null : check(value, path));
}

export function arrayOf(check: Check, maxItems: number): Check {
  return (value, path) => {
    if (!Array.isArray(value)) return `${path} must be an array`;
    if (value.length > maxItems) return `${path} has more than ${maxItems} items`;
    for (let i = 0; i < value.length; i++) {
      const err = check(value[i], `${path}[${i}]`);
      if (err) return err;
    }
    return null;
  };
}

/**
 * An object with exactly the listed fields: required ones must be present, optional ones may be
 * absent (or undefined), anything else is refused so a typo never silently does nothing.
 */
export function object(required: Record<string, Check>, optional: Record<string, Check> = {}): Check {
  return (value, path) => {
    if (!isPlainObject(value)) return `${path} must be an object`;
    for (const key of Object.keys(value)) {
      if (!Object.hasOwn(required, key) && !Object.hasOwn(optional, key)) {
        return `${path} has unknown key '${key}'`;
      }
    }
    for (const [key, check] of Object.entries(required)) {
      if (!Object.hasOwn(value, key) || value[key] === undefined) return `${path}.${key} is required`;
      const err = check(value[key], `${path}.${key}`);
      if (err) return err;
    }
    for (const [key, check] of Object.entries(optional)) {
      if (value[key] === undefined) continue;
      const err = check(value[key], `${path}.${key}`);
      if (err) return err;
    }
    return null;
  };
}

/** A group id from a snapshot. A bare PID or PGID is refused by name: stopping by number is unsafe. */
export const groupId: Check = (value, path) => {
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) {
    return (
      `${path} must be a group id from a snapshot ('<pgid>:<pid>:<startKey>'), ` +
      `not a raw PID or PGID (${String(value)}): PIDs are reused, ids are not`
    );
  }
  if (typeof value !== 'string') return `${path} must be a string group id`;
  if (value.length > MAX_GROUP_ID_LENGTH || !GROUP_ID_PATTERN.test(value)) {
    return `${path} is not a group id ('<pgid>:<pid>:<startKey>'): ${JSON.stringify(value.slice(0, 80))}`;
  }
  return null;
};
