import { afterEach, describe, expect, it } from 'vitest';
import { REQUEST_CHANNELS, type RequestChannel } from '../../shared/contract';
import type { TeardownResult } from '../../shared/model';
import type { CorralService } from '../../main/core/service';
import { answerRequest, serviceClient, type ServiceClient } from '../../main/core/service-requests';
import { validateRequest } from '../../main/transport/validate-request';
import { spawnedGroupView } from '../actions/group-target';
import { groupMembers } from '../support/proc';
import { startHarness, type Harness } from '../support/service-harness';
import { waitFor } from '../support/wait-for';

// The worker's client (serviceClient) and its answering side (answerRequest) are both read off
// SERVICE_REQUESTS: a method called on the client reaches the same method of the service, with the
// same arguments, through a payload the transports accept (a recorder stands for the service there),
// and answers what a real service answers (a real CorralService, and a real group stopped through it).

type Sent = { channel: RequestChannel; payload: unknown; onProgress: unknown };
type Call = { method: string | symbol; args: unknown[] };

function roundTrip(): { client: ServiceClient; sent: Sent[]; calls: Call[] } {
  const sent: Sent[] = [];
  const calls: Call[] = [];
  const service = new Proxy({} as CorralService, {
    get:
      (_target, method) =>
      (...args: unknown[]) => {
        calls.push({ method, args });
        return undefined;
      },
  });
  const client = serviceClient((channel, payload, onProgress) => {
    sent.push({ channel, payload, onProgress });
    // As a worker message carries it.
    return answerRequest(service, channel, structuredClone(payload), onProgress);
  });
  return { client, sent, calls };
}

const onProgress = (_partial: TeardownResult): void => {};
const GROUP = '4242:4242:7';

// Each case: the method and its arguments, and the channel and payload the client sends for them.
const CASES: Array<[keyof ServiceClient, unknown[], RequestChannel, unknown]> = [
  ['snapshot', [], 'snapshot:get', undefined],
  ['timeline', [GROUP, 5], 'timeline:get', { groupId: GROUP, sinceMs: 5 }],
  [
    'stopGroup',
    [{ groupId: GROUP, dryRun: true }, onProgress],
    'group:stop',
    { groupId: GROUP, dryRun: true },
  ],
  [
    'stopSession',
    [{ sessionId: 'sess-12345678' }, onProgress],
    'session:stop',
    { sessionId: 'sess-12345678' },
  ],
  ['keepGroup', [{ groupId: GROUP, forMs: 3_600_000 }], 'group:keep', { groupId: GROUP, forMs: 3_600_000 }],
  ['unkeepGroup', [GROUP], 'group:unkeep', { groupId: GROUP }],
  ['incidents', [{ limit: 3, flag: 'runaway' }], 'incidents:list', { limit: 3, flag: 'runaway' }],
  ['settings', [], 'settings:get', undefined],
  ['updateSettings', [{ pollIntervalMs: 500 }], 'settings:set', { pollIntervalMs: 500 }],
  ['configProblems', [], 'config:problems', undefined],
  ['policyJournal', [{ limit: 5 }], 'policies:journal', { limit: 5 }],
  ['hooksStatus', [], 'hooks:status', undefined],
  ['hookEndpoint', [], 'hooks:endpoint', undefined],
  [
    'installHooks',
    [{ agent: 'claude-code', dryRun: true }],
    'hooks:install',
    { agent: 'claude-code', dryRun: true },
  ],
];

describe('the service client made from SERVICE_REQUESTS', () => {
  it.each(CASES)(
    '%s(…) sends %s and reaches the same method with the same arguments',
    async (method, args, channel, payload) => {
      const { client, sent, calls } = roundTrip();
      await (client[method] as (...a: unknown[]) => Promise<unknown>)(...args);
      const progress = method === 'stopGroup' || method === 'stopSession' ? onProgress : undefined;
      expect(sent).toEqual([{ channel, payload, onProgress: progress }]);
      expect(validateRequest(channel, payload)).toMatchObject({ ok: true });
      expect(calls).toEqual([{ method, args }]);
    },
  );

  it('has a method for every channel', () => {
    expect(new Set(CASES.map(([, , channel]) => channel))).toEqual(new Set(REQUEST_CHANNELS));
    expect(Object.keys(roundTrip().client).sort()).toEqual(CASES.map(([method]) => method).sort());
  });

  it('sends an optional field left out as absent, which the transports accept', async () => {
    const { client, sent, calls } = roundTrip();
    await client.incidents();
    await client.timeline(GROUP);
    expect(sent.map((s) => s.payload)).toEqual([undefined, { groupId: GROUP, sinceMs: undefined }]);
    for (const s of sent) expect(validateRequest(s.channel, s.payload)).toMatchObject({ ok: true });
    expect(calls).toEqual([
      { method: 'incidents', args: [undefined] },
      { method: 'timeline', args: [GROUP, undefined] },
    ]);
  });

  describe('over a real service', () => {
    let harness: Harness | null = null;
    afterEach(async () => {
      await harness?.stop();
      harness = null;
    });

    /** The client as the worker's host makes it, answered by the real service as the worker answers. */
    const clientOf = (service: CorralService): ServiceClient =>
      serviceClient((channel, payload, progress) =>
        answerRequest(service, channel, structuredClone(payload), progress),
      );

    it('answers what the service answers itself', async () => {
      harness = startHarness();
      const { service } = harness.running;
      const client = clientOf(service);
      expect(await client.settings()).toEqual(service.settings());
      expect(await client.configProblems()).toEqual(await service.configProblems());
      expect(await client.incidents({ limit: 3 })).toEqual(await service.incidents({ limit: 3 }));
      expect(await client.policyJournal({ limit: 5 })).toEqual(await service.policyJournal({ limit: 5 }));
      expect(await client.timeline(GROUP)).toBeNull();
      await expect(client.stopGroup({ groupId: GROUP })).rejects.toThrow(/already gone|no group/);
    });

    it('stops a real group the service sees, with its progress', async () => {
      harness = startHarness();
      const { service } = harness.running;
      const { leftover } = await spawnedGroupView();
      const seen = await waitFor('the group in the service snapshot', () =>
        service.snapshot().groups.find((g) => g.pgid === leftover.pgid),
      );
      const progress: TeardownResult[] = [];
      const result = await clientOf(service).stopGroup({ groupId: seen.id }, (p) => progress.push(p));
      expect(result).toMatchObject({ groupId: seen.id, refused: null, clean: true });
      expect(groupMembers(leftover.pgid)).toEqual([]);
      expect(progress.length).toBeGreaterThan(0);
    });
  });
});
