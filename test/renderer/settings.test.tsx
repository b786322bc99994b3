import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SettingsPage } from '../../renderer/src/settings/SettingsPage';
import { parseAgents, parseSettingsForm, settingsToForm } from '../../renderer/src/settings/settings-form';
import type { Settings } from '../../shared/model';
import { FakeCorralApi } from './support/fake-corral-api';
import { makeSettings } from './support/fixtures';
import { renderWithCorral } from './support/render-app';

const current = makeSettings({ notifications: { enabled: true, pausedUntil: 12345 } });

describe('settings form parsing', () => {
  it('turns a valid form into a full patch', () => {
    const form = {
      ...settingsToForm(current),
      pollIntervalMs: ' 1500 ',
      cpuPercent: '150.5',
      notificationsEnabled: false,
    };
    expect(parseSettingsForm(form, current)).toEqual({
      ok: true,
      patch: {
        pollIntervalMs: 1500,
        runaway: { cpuPercent: 150.5, windowSeconds: 60 },
        teardown: { graceMs: 3000 },
        notifications: { enabled: false, pausedUntil: 12345 },
        agents: [],
      },
    });
  });

  it('names every bad field', () => {
    const form = {
      ...settingsToForm(current),
      pollIntervalMs: 'fast',
      cpuPercent: '0',
      windowSeconds: '0.05',
      graceMs: '',
      agentsJson: '{',
    };
    const parsed = parseSettingsForm(form, current);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.pollIntervalMs).toBe('Poll interval must be a number.');
    expect(parsed.errors.cpuPercent).toBe('Runaway threshold must be between 1 and 10000.');
    expect(parsed.errors.windowSeconds).toBe('Runaway window must be between 0.1 and 86400.');
    expect(parsed.errors.graceMs).toBe('Grace period must be a number.');
    expect(parsed.errors.agentsJson).toMatch(/^Agent signatures are not valid JSON/);
  });

  it('asks for whole milliseconds', () => {
    const parsed = parseSettingsForm({ ...settingsToForm(current), graceMs: '1.5' }, current);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.graceMs).toBe('Grace period must be a whole number.');
  });

  it.each([
    ['{}', 'Agent signatures must be a JSON array of objects.'],
    ['[1]', 'Signature 1 must be an object.'],
    ['[{"comm": ["x"]}]', 'Signature 1 needs a "name".'],
    ['[{"name": "a", "cmd": ["x"]}]', 'Signature 1 has unknown field "cmd".'],
    [
      '[{"name": "a"}]',
      'Signature 1 ("a") needs at least one of "comm", "commandPatterns", "envMarkers" or "toolCallPatterns".',
    ],
    ['[{"name": "a", "comm": "aider"}]', 'Signature 1 ("a"): "comm" must be a list of non-empty strings.'],
    [
      '[{"name": "a", "comm": ["a"]}, {"name": "a", "comm": ["b"]}]',
      'Signature 2 ("a") repeats a name used above.',
    ],
    [
      '[{"name": "a", "comm": ["a"], "pidEnv": 3}]',
      'Signature 1 ("a"): "pidEnv" must be a non-empty string.',
    ],
  ])('rejects agent signatures %s', (json, message) => {
    expect(parseAgents(json)).toBe(message);
  });

  it('rejects a signature pattern that is not a regular expression', () => {
    expect(parseAgents('[{"name": "a", "commandPatterns": ["(unclosed"]}]')).toMatch(
      /^Signature 1 \("a"\): "commandPatterns" has an invalid regular expression \/\(unclosed\//,
    );
  });

  it('accepts an empty textarea and a complete signature', () => {
    expect(parseAgents('  ')).toEqual([]);
    const signature = {
      name: 'aider',
      comm: ['aider'],
      commandPatterns: ['python.*aider'],
      envMarkers: ['AIDER'],
      pidEnv: 'AIDER_PID',
    };
    expect(parseAgents(JSON.stringify([signature]))).toEqual([signature]);
  });
});

function setup(
  answer: (patch: Partial<Settings>) => { ok: true; settings: Settings } | { ok: false; errors: string[] },
) {
  const patches: Array<Partial<Settings>> = [];
  const api = new FakeCorralApi({
    'snapshot:get': () => ({ seq: 1, sampledAt: 0, groups: [] }),
    'settings:get': () => current,
    'settings:set': (patch) => {
      patches.push(patch);
      return answer(patch);
    },
  });
  renderWithCorral(<SettingsPage />, api);
  return { patches };
}

describe('settings page', () => {
  it('shows what was wrong with the config file, and nothing when it was fine', async () => {
    const api = new FakeCorralApi({
      'snapshot:get': () => ({ seq: 1, sampledAt: 0, groups: [] }),
      'settings:get': () => current,
      'policies:journal': () => [],
      'hooks:status': () => ({ agents: [], command: null, commandProblem: 'not in this test' }),
      'config:problems': () => ({
        path: '/home/me/.config/corral/config.json',
        errors: ['runaway.cpuPercent: expected a number from 1 to 10000, got -5; the default 80 is used'],
      }),
    });
    renderWithCorral(<SettingsPage />, api);
    const alert = await screen.findByRole('alert', { name: 'Config file problems' });
    expect(alert.textContent).toContain('/home/me/.config/corral/config.json');
    expect(alert.textContent).toContain('runaway.cpuPercent: expected a number from 1 to 10000');
  });

  it('shows client-side errors next to the fields and sends nothing', async () => {
    const { patches } = setup(() => ({ ok: true, settings: current }));
    const poll = await screen.findByRole('textbox', { name: 'Poll interval (ms)' });
    expect((poll as HTMLInputElement).value).toBe('2000');
    fireEvent.change(poll, { target: { value: '10' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Extra agent signatures (JSON)' }), {
      target: { value: '[{"name": ""}]' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByTestId('error-poll-interval').textContent).toBe(
      'Poll interval must be between 100 and 60000.',
    );
    expect(poll.getAttribute('aria-invalid')).toBe('true');
    expect(poll.getAttribute('aria-describedby')).toBe('poll-interval-error');
    expect(screen.getByTestId('error-agents-json').textContent).toBe('Signature 1 needs a "name".');
    expect(patches).toEqual([]);
  });

  it('sends a valid form and shows what the server rejected', async () => {
    const { patches } = setup(() => ({ ok: false, errors: ['runaway.windowSeconds must be at least 5'] }));
    const window = await screen.findByRole('textbox', { name: 'Runaway window (seconds)' });
    fireEvent.change(window, { target: { value: '2' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Notifications' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(patches).toHaveLength(1);
    expect(patches[0]).toMatchObject({
      runaway: { cpuPercent: 90, windowSeconds: 2 },
      notifications: { enabled: false },
    });
    expect(screen.getByTestId('server-errors').textContent).toContain(
      'runaway.windowSeconds must be at least 5',
    );
  });

  it('takes the saved settings back from the server', async () => {
    setup((patch) => ({ ok: true, settings: { ...current, ...patch, pollIntervalMs: 5000 } }));
    const grace = await screen.findByRole('textbox', { name: 'Grace period before SIGKILL (ms)' });
    fireEvent.change(grace, { target: { value: '500' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(screen.getByRole('status').textContent).toBe('Saved.');
    expect((screen.getByRole('textbox', { name: 'Poll interval (ms)' }) as HTMLInputElement).value).toBe(
      '5000',
    );
    expect((grace as HTMLInputElement).value).toBe('500');
  });
});
