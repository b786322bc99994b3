import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { configPath, loadConfig } from '../../main/core/config/load-config';
import { validateSettings } from '../../main/core/config/validate-settings';
import { tempDirForTest } from '../support/spawned-groups';

describe('settings validation', () => {
  it('accepts every documented key', () => {
    const input = {
      pollIntervalMs: 500,
      quietPollIntervalMs: 4000,
      runaway: { cpuPercent: 90, windowSeconds: 60 },
      teardown: { graceMs: 5000 },
      notifications: { enabled: false },
      agents: [{ name: 'my-agent', comm: ['my-agent'], envMarkers: ['MY_AGENT'] }],
    };
    const { settings, errors } = validateSettings(input);
    expect(errors).toEqual([]);
    expect(settings).toMatchObject(input);
  });

  it.each([
    [{ pollIntervalMs: 'fast' }, 'pollIntervalMs: expected an integer'],
    [{ pollIntervalMs: 1e12 }, 'pollIntervalMs: 1000000000000 is outside'],
    [{ quietPollIntervalMs: 50 }, 'quietPollIntervalMs: 50 is outside'],
    [{ quietPollIntervalMs: '2s' }, 'quietPollIntervalMs: expected an integer'],
    [{ runaway: { cpuPercent: -5 } }, 'runaway.cpuPercent: -5 is outside'],
    [{ runaway: { windowSeconds: null } }, 'runaway.windowSeconds: expected a number'],
    [{ teardown: { graceMs: 1.5 } }, 'teardown.graceMs: expected an integer'],
    [{ colour: 'blue' }, 'colour: unknown key'],
    [{ agents: [{ name: 'Bad Name!' }] }, 'agents[0].name'],
    [
      { agents: [{ name: 'x', commandPatterns: ['('] }] },
      'agents[0].commandPatterns: invalid regular expression',
    ],
    [{ agents: [{ name: 'x' }] }, 'agents[0]: needs at least one of'],
    [{ notifications: { enabled: 'yes' } }, 'notifications.enabled'],
  ])('%j → error naming the field, default kept', (input, message) => {
    const { settings, errors } = validateSettings(input);
    expect(errors.join('\n')).toContain(message);
    // The one field given is invalid: every setting, not just one, is the default.
    expect(settings).toEqual(DEFAULT_SETTINGS);
  });

  it('names the file in every error and falls back to defaults for a file that is not JSON', () => {
    const dir = tempDirForTest('corral-config-');
    const file = join(dir, 'config.json');
    writeFileSync(file, '{ not json');
    const loaded = loadConfig(file);
    expect(loaded.settings).toEqual(DEFAULT_SETTINGS);
    expect(loaded.errors[0]).toContain(file);
    expect(loaded.errors[0]).toContain('not valid JSON');
  });

  it('treats a missing file as defaults without an error, and honours CORRAL_CONFIG', () => {
    expect(loadConfig('/nonexistent/corral.json')).toMatchObject({ settings: DEFAULT_SETTINGS, errors: [] });
    expect(configPath({ CORRAL_CONFIG: '/etc/corral.json' })).toBe('/etc/corral.json');
    expect(configPath({}, 'linux', '/home/u')).toBe('/home/u/.config/corral/config.json');
    expect(configPath({}, 'darwin', '/Users/u')).toBe(
      '/Users/u/Library/Application Support/Corral/config.json',
    );
  });
});
