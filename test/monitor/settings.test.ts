import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { loadConfig } from '../../main/core/config/load-config';
import { createCorralService, type RunningService } from '../../main/core/create-service';
import { spawnGroup, tempDirForTest } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

let running: RunningService | null = null;
afterEach(async () => {
  await running?.stop();
  running = null;
});

function start(): { running: RunningService; configPath: string } {
  const dir = tempDirForTest('corral-settings-');
  const configPath = join(dir, 'corral', 'config.json');
  running = createCorralService({
    config: { path: configPath, settings: { ...DEFAULT_SETTINGS, pollIntervalMs: 200 }, errors: [] },
    dataDir: join(dir, 'data'),
  });
  return { running, configPath };
}

describe('config file problems through the service', () => {
  it('are reported as read, and cleared once valid settings were saved over them', async () => {
    const dir = tempDirForTest('corral-settings-');
    const configPath = join(dir, 'config.json');
    const errors = [`${configPath}: pollIntervalMs: expected 100..60000, got 5; the default is used`];
    running = createCorralService({
      config: { path: configPath, settings: { ...DEFAULT_SETTINGS }, errors },
      dataDir: join(dir, 'data'),
    });
    expect(await running.service.configProblems()).toEqual({ path: configPath, errors });
    const saved = await running.service.updateSettings({ pollIntervalMs: 500 });
    expect(saved.ok).toBe(true);
    expect(await running.service.configProblems()).toEqual({ path: configPath, errors: [] });
  });
});

describe('settings changed through the service', () => {
  it('are validated, saved to the config file, and survive a reload', async () => {
    const { running, configPath } = start();
    const bad = await running.service.updateSettings({ runaway: { cpuPercent: -1, windowSeconds: 30 } });
    expect(bad).toEqual({ ok: false, errors: [expect.stringContaining('runaway.cpuPercent')] });
    expect(() => readFileSync(configPath)).toThrow();

    const good = await running.service.updateSettings({ teardown: { graceMs: 1234 } });
    expect(good.ok).toBe(true);
    expect(running.service.settings().teardown.graceMs).toBe(1234);
    expect(JSON.parse(readFileSync(configPath, 'utf8')).teardown.graceMs).toBe(1234);
    expect(loadConfig(configPath)).toMatchObject({
      errors: [],
      settings: { teardown: { graceMs: 1234 }, pollIntervalMs: 200 },
    });
  });

  it('apply a new agent signature to processes seen from then on', async () => {
    const { running } = start();
    const result = await running.service.updateSettings({
      agents: [{ name: 'my-agent', comm: ['my-agent'] }],
    });
    expect(result.ok).toBe(true);
    const group = spawnGroup('exec -a my-agent sleep 600');
    const view = await waitFor('the group attributed to my-agent', () =>
      running.service.snapshot().groups.find((g) => g.pgid === group.pgid && g.agent?.name === 'my-agent'),
    );
    expect(view.containsAgent).toBe(true);
  });
});
