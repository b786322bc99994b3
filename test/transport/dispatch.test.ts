import { describe, expect, it } from 'vitest';
import { dispatch } from '../../main/transport/dispatch';
import type { TeardownResult } from '../../shared/model';
import { FakeCorralService, KNOWN_GROUP_ID } from './fake-corral-service';

describe('dispatch', () => {
  it('maps each channel to its service call', async () => {
    const service = new FakeCorralService();
    expect(await dispatch(service, 'snapshot:get', undefined)).toEqual({
      ok: true,
      payload: service.current,
    });
    await dispatch(service, 'timeline:get', { groupId: KNOWN_GROUP_ID, sinceMs: 5 });
    await dispatch(service, 'incidents:list', { limit: 3 });
    await dispatch(service, 'settings:get', undefined);
    await dispatch(service, 'settings:set', { pollIntervalMs: 500 });
    expect(service.calls).toEqual([
      { method: 'snapshot', args: [] },
      { method: 'timeline', args: [KNOWN_GROUP_ID, 5] },
      { method: 'incidents', args: [3] },
      { method: 'settings', args: [] },
      { method: 'updateSettings', args: [{ pollIntervalMs: 500 }] },
    ]);
  });

  it('stops a group by the id the service reported and forwards progress', async () => {
    const service = new FakeCorralService();
    const progress: TeardownResult[] = [];
    const result = await dispatch(service, 'group:stop', { groupId: KNOWN_GROUP_ID, dryRun: true }, (p) =>
      progress.push(p),
    );
    expect(result).toMatchObject({
      ok: true,
      payload: { groupId: KNOWN_GROUP_ID, dryRun: true, clean: true },
    });
    expect(progress).toHaveLength(1);
  });

  it('turns an id the service never reported into an error, not a throw', async () => {
    const service = new FakeCorralService();
    const result = await dispatch(service, 'group:stop', { groupId: '1:2:3' });
    expect(result).toEqual({
      ok: false,
      error: 'group:stop: no group with id 1:2:3 in the current snapshot',
    });
  });

  it('never reaches the service with an invalid request', async () => {
    const service = new FakeCorralService();
    const result = await dispatch(service, 'group:stop', { groupId: 4242 });
    expect(result.ok).toBe(false);
    expect(service.calls).toEqual([]);
  });
});
