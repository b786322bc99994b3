import { describe, expect, it } from 'vitest';
import {
  decidePolicyNotice,
  INITIAL_POLICY_NOTICE_STATE,
  type PolicyNoticeState,
} from '../../main/electron/policy-notice';
import type { MonitorEvent, Settings } from '../../shared/model';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const on: Settings['notifications'] = { enabled: true, pausedUntil: null };

function event(
  type: MonitorEvent['type'],
  detail: MonitorEvent['detail'],
  groupId = '90:90:1',
): MonitorEvent {
  return {
    type,
    at: NOW,
    groupId,
    pid: 90,
    pgid: 90,
    agent: { name: 'claude-code', pid: 10 },
    command: 'node /tmp/dev-server.js --port 5173',
    detail,
  };
}

const matched = (action: 'notify' | 'stop', executed: boolean, groupId?: string) =>
  event('policy-matched', { policy: 'big-memory', action, executed }, groupId);

function decide(e: MonitorEvent, state: PolicyNoticeState = INITIAL_POLICY_NOTICE_STATE, settings = on) {
  return decidePolicyNotice(e, state, { now: NOW, settings });
}

describe('policy notifications', () => {
  it('a notify rule notifies in observe mode, naming the policy, command and group', () => {
    const d = decide(matched('notify', false));
    expect(d.notice).toEqual({
      title: 'Policy "big-memory" matched',
      body: 'node /tmp/dev-server.js --port 5173 (claude-code, group 90) matches this rule.',
      groupId: '90:90:1',
    });
  });

  it('a notify rule notifies in enforce mode too', () => {
    expect(decide(matched('notify', true)).notice?.title).toBe('Policy "big-memory" matched');
  });

  it('an observed stop does not notify (the journal counts it)', () => {
    const d = decide(matched('stop', false));
    expect(d).toMatchObject({ notice: null, suppressed: 'not-announced' });
    expect(d.state.announced.size).toBe(0);
  });

  it('an executed stop is announced by its stopped-by-policy event, not by the match', () => {
    expect(decide(matched('stop', true)).notice).toBeNull();
    const d = decide(event('stopped-by-policy', { policy: 'loops', clean: true }));
    expect(d.notice?.title).toBe('Policy "loops" stopped a group');
    expect(d.notice?.body).toBe('node /tmp/dev-server.js --port 5173 (claude-code, group 90) was stopped.');
  });

  it('each group and policy is announced once', () => {
    const first = decide(matched('notify', false));
    expect(decide(matched('notify', false), first.state)).toMatchObject({
      notice: null,
      suppressed: 'already-announced',
    });
    expect(decide(matched('notify', false, '91:91:1'), first.state).notice).not.toBeNull();
  });

  it('follows the notification switch and pause without marking the match announced', () => {
    const off = decide(matched('notify', false), INITIAL_POLICY_NOTICE_STATE, {
      enabled: false,
      pausedUntil: null,
    });
    expect(off).toMatchObject({ notice: null, suppressed: 'disabled' });
    const paused = decide(matched('notify', false), off.state, { enabled: true, pausedUntil: NOW + 1 });
    expect(paused).toMatchObject({ notice: null, suppressed: 'paused' });
    expect(decide(matched('notify', false), paused.state).notice).not.toBeNull();
  });

  it('ignores events that are not policies', () => {
    expect(decide(event('orphaned', {})).notice).toBeNull();
  });
});
