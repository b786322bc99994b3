import { describe, expect, it } from 'vitest';
import { REQUEST_CHANNELS } from '../../shared/contract';
import { MAX_PAYLOAD_BYTES } from '../../main/transport/limits';
import { validateRequest } from '../../main/transport/validate-request';

const ID = '4242:4242:987654';
const big = 'x'.repeat(MAX_PAYLOAD_BYTES + 1);
const cyclic: Record<string, unknown> = { groupId: ID };
cyclic.self = cyclic;

describe('validateRequest accepts what the contract allows', () => {
  it.each([
    ['snapshot:get', undefined],
    ['snapshot:get', null],
    ['settings:get', undefined],
    ['timeline:get', { groupId: ID }],
    ['timeline:get', { groupId: ID, sinceMs: 1000 }],
    ['group:stop', { groupId: ID }],
    ['group:stop', { groupId: ID, orphansOnly: true, withEscaped: false, dryRun: true }],
    ['session:stop', { sessionId: '3f0e5a52-7a53-4c55-9a51-2f1d8f6c0b11' }],
    ['session:stop', { sessionId: '4521', groupIds: [ID], dryRun: true }],
    ['incidents:list', {}],
    ['incidents:list', { limit: 50 }],
    [
      'incidents:list',
      {
        limit: 50,
        offset: 100,
        agent: 'codex',
        sessionId: 'abc',
        project: '/w',
        flag: 'spawn-storm',
        sinceMs: 1,
        untilMs: 2,
      },
    ],
    ['settings:set', {}],
    ['settings:set', { pollIntervalMs: 1500 }],
    ['settings:set', { notifications: { enabled: true, pausedUntil: null } }],
    ['settings:set', { agents: [{ name: 'mine', comm: ['mine'], envMarkers: ['MINE=1'] }] }],
  ])('%s %j', (channel, payload) => {
    const result = validateRequest(channel, payload);
    expect(result).toMatchObject({ ok: true, channel });
  });

  it('covers every request channel with at least one accepted payload', () => {
    const accepted = new Set(
      [
        ['snapshot:get', undefined],
        ['timeline:get', { groupId: ID }],
        ['group:stop', { groupId: ID }],
        ['group:keep', { groupId: ID, forMs: 3_600_000, note: 'dev server' }],
        ['group:unkeep', { groupId: ID }],
        ['session:stop', { sessionId: '3f0e5a52' }],
        ['incidents:list', {}],
        ['settings:get', undefined],
        ['settings:set', {}],
        ['config:problems', undefined],
        ['policies:journal', { sinceMs: 0, limit: 50 }],
        ['hooks:status', undefined],
        ['hooks:endpoint', undefined],
        ['hooks:install', { agent: 'claude-code', dryRun: true }],
      ].map(([c, p]) => (validateRequest(c, p).ok ? c : null)),
    );
    expect([...accepted].sort()).toEqual([...REQUEST_CHANNELS].sort());
  });

  it('returns a copy, not the caller object', () => {
    const payload = { groupId: ID };
    const result = validateRequest('group:stop', payload);
    expect(result.ok && result.payload).toEqual(payload);
    expect(result.ok && result.payload).not.toBe(payload);
  });
});

describe('validateRequest refuses bad requests with a clear error', () => {
  it.each<[string, unknown, unknown, RegExp]>([
    ['unknown channel', 'process:kill', { pid: 1 }, /unknown channel 'process:kill'/],
    ['non-string channel', 42, undefined, /unknown channel number/],
    ['missing channel', undefined, undefined, /unknown channel undefined/],
    ['prototype key as channel', '__proto__', undefined, /unknown channel/],
    ['payload on a void channel', 'snapshot:get', { all: true }, /must be empty/],
    ['hooks install without dryRun', 'hooks:install', { agent: 'codex' }, /dryRun is required/],
    [
      'hooks for an unknown agent',
      'hooks:install',
      { agent: 'aider', dryRun: true },
      /agent must be one of claude-code/,
    ],
    ['a keep shorter than a minute', 'group:keep', { groupId: '4242:4242:1', forMs: 1 }, /forMs/],
    ['a keep longer than 30 days', 'group:keep', { groupId: '4242:4242:1', forMs: 1e12 }, /forMs/],
    ['a keep of a bare PID', 'group:keep', { groupId: '4242' }, /groupId/],
    ['journal since a negative time', 'policies:journal', { sinceMs: -1 }, /sinceMs/],
    ['journal limit too large', 'policies:journal', { limit: 1e9 }, /limit must be <= /],
    ['payload not an object', 'group:stop', 'kill it', /payload must be an object/],
    ['array payload', 'group:stop', [ID], /payload must be an object/],
    ['missing groupId', 'group:stop', {}, /payload.groupId is required/],
    ['raw pid number for group id', 'group:stop', { groupId: 4242 }, /not a raw PID or PGID \(4242\)/],
    ['raw pid string for group id', 'group:stop', { groupId: '4242' }, /not a raw PID or PGID/],
    ['negative pgid', 'group:stop', { groupId: '-4242' }, /is not a group id/],
    ['malformed group id', 'group:stop', { groupId: '4242:abc:1' }, /is not a group id/],
    ['group id with extra part', 'timeline:get', { groupId: `${ID}:1` }, /is not a group id/],
    ['over-long group id', 'group:stop', { groupId: `${'1'.repeat(70)}:1:1` }, /is not a group id/],
    ['group id of wrong type', 'timeline:get', { groupId: { pgid: 1 } }, /must be a string group id/],
    ['wrong flag type', 'group:stop', { groupId: ID, dryRun: 'yes' }, /payload.dryRun must be a boolean/],
    ['unknown key', 'group:stop', { groupId: ID, signal: 'SIGKILL' }, /unknown key 'signal'/],
    ['missing sessionId', 'session:stop', {}, /payload.sessionId is required/],
    ['empty sessionId', 'session:stop', { sessionId: '' }, /1 to 256 characters/],
    ['sessionId not a string', 'session:stop', { sessionId: 42 }, /must be a string session id/],
    ['sessionId with a newline', 'session:stop', { sessionId: 'abc\ndef' }, /control characters/],
    [
      'raw pgid among confirmed groups',
      'session:stop',
      { sessionId: 'abcdefgh', groupIds: [4242] },
      /not a raw PID/,
    ],
    ['groupIds not an array', 'session:stop', { sessionId: 'abcdefgh', groupIds: ID }, /must be an array/],
    [
      'unknown session stop key',
      'session:stop',
      { sessionId: 'abcdefgh', orphansOnly: true },
      /unknown key 'orphansOnly'/,
    ],
    ['sinceMs not finite', 'timeline:get', { groupId: ID, sinceMs: Infinity }, /finite number/],
    ['limit fractional', 'incidents:list', { limit: 1.5 }, /must be an integer/],
    ['limit zero', 'incidents:list', { limit: 0 }, /must be >= 1/],
    ['limit huge', 'incidents:list', { limit: 1e9 }, /must be <= 10000/],
    ['offset negative', 'incidents:list', { offset: -1 }, /must be >= 0/],
    ['flag not an incident flag', 'incidents:list', { flag: 'session-ended' }, /must be one of orphan/],
    ['since not a time', 'incidents:list', { sinceMs: '2h' }, /finite number/],
    ['session with a newline', 'incidents:list', { sessionId: 'a\nb' }, /control characters/],
    ['unknown settings key', 'settings:set', { pollInterval: 5 }, /unknown key 'pollInterval'/],
    [
      'nested settings wrong type',
      'settings:set',
      { runaway: { cpuPercent: '90', windowSeconds: 5 } },
      /runaway.cpuPercent/,
    ],
    ['nested settings incomplete', 'settings:set', { teardown: {} }, /teardown.graceMs is required/],
    ['agents not an array', 'settings:set', { agents: { name: 'x' } }, /agents must be an array/],
    ['agent without name', 'settings:set', { agents: [{ comm: ['x'] }] }, /agents\[0\].name is required/],
    ['oversized payload', 'group:stop', { groupId: ID, pad: big }, /bytes; the limit is 65536/],
    ['oversized settings', 'settings:set', { agents: [{ name: big }] }, /the limit is 65536/],
    ['cyclic payload', 'group:stop', cyclic, /plain JSON data/],
    [
      'class instance payload',
      'group:stop',
      new (class {
        groupId = ID;
      })(),
      /must be an object/,
    ],
  ])('%s', (_name, channel, payload, message) => {
    const result = validateRequest(channel, payload);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(message);
  });

  it('refuses a __proto__ key smuggled through JSON', () => {
    const payload = JSON.parse(`{"groupId":"${ID}","__proto__":{"dryRun":false}}`);
    const result = validateRequest('group:stop', payload);
    expect(!result.ok && result.error).toMatch(/unknown key '__proto__'/);
  });
});
