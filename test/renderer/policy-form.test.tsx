import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SettingsPage } from '../../renderer/src/settings/SettingsPage';
import { errorsForRule, formToRaw, ruleToForm } from '../../renderer/src/policies/policy-form';
import type { PolicyRule, Settings } from '../../shared/model';
import { validatePolicies } from '../../shared/policy-validation';
import { FakeCorralApi } from './support/fake-corral-api';
import { makeSettings, makeSnapshot } from './support/fixtures';
import { renderWithCorral } from './support/render-app';

const rules: PolicyRule[] = [
  {
    name: 'stop-orphaned-loops',
    match: { flags: ['orphan', 'runaway'], agents: ['claude-code'] },
    action: 'stop',
  },
  { name: 'big-memory', match: { flags: ['memory-hog'] }, action: 'notify', enabled: false },
];

function setup(current: Settings) {
  const patches: Array<Partial<Settings>> = [];
  let settings = current;
  const api = new FakeCorralApi({
    'policies:journal': () => [],
    'hooks:status': () => ({ agents: [], command: null }),
    'snapshot:get': () => makeSnapshot(1, []),
    'settings:get': () => settings,
    'settings:set': (patch) => {
      patches.push(patch);
      settings = { ...settings, ...patch };
      return { ok: true, settings };
    },
  });
  renderWithCorral(<SettingsPage />, api);
  return { api, patches };
}

const editor = () => screen.getByTestId('rule-editor');
const type = (label: string | RegExp, value: string) =>
  fireEvent.change(within(editor()).getByLabelText(label), { target: { value } });
const submit = async (name = 'Add rule') =>
  act(async () => fireEvent.click(within(editor()).getByRole('button', { name })));
const fieldError = (field: string) => screen.queryByTestId(`rule-${field}-error`)?.textContent ?? null;

describe('the policy rule form', () => {
  it('holds every field the validator knows, and gives back the same rule', () => {
    const rule: PolicyRule = {
      name: 'dev servers',
      match: {
        agents: ['codex'],
        flags: ['orphan'],
        sessionEnded: true,
        commandPatterns: ['vite', 'next dev'],
        ports: [3000, 5173],
        minAgeSeconds: 3600,
        minCpuSeconds: 1.5,
        minMemoryMegabytes: 200,
      },
      action: 'stop',
      graceMs: 2000,
      enabled: false,
    };
    expect(formToRaw(ruleToForm(rule))).toEqual(rule);
    const errors: string[] = [];
    expect(validatePolicies([formToRaw(ruleToForm(rule))], errors)).toEqual([rule]);
    expect(errors).toEqual([]);
  });

  it("files the core's messages under the field each is about", () => {
    const errors: string[] = [];
    validatePolicies(
      [
        rules[0],
        { name: 'x', match: { flags: ['zombie'], ports: ['http'], minAgeSeconds: -1 }, action: 'kill' },
        { name: 'stop-orphaned-loops', match: { flags: ['orphan'] }, action: 'notify' },
        { name: '', match: {}, action: 'notify' },
      ],
      errors,
    );
    expect(errorsForRule(errors, 0)).toEqual({});
    expect(errorsForRule(errors, 1)).toEqual({
      action: ['expected "notify" or "stop", got "kill"'],
      flags: [
        'unknown flag "zombie" (known: orphan, leaderless, runaway, held-pipe, memory-hog, spawn-storm, session-ended)',
      ],
      ports: ['expected a non-empty list of port numbers (1..65535)'],
      minAgeSeconds: ['expected a number >= 0, got -1'],
    });
    expect(errorsForRule(errors, 2)).toEqual({ name: ['another rule already has this name'] });
    expect(errorsForRule(errors, 3).name![0]).toMatch(/^expected a name of up to 64 letters/);
  });
});

describe('policies in Settings as a form', () => {
  it("adds a rule only once the core's validator accepts it, showing its messages field by field", async () => {
    const { patches } = setup(makeSettings({ policies: rules }));
    const add = await screen.findByRole('button', { name: 'Add a rule…' });
    await act(async () => fireEvent.click(add));
    await submit();
    expect(fieldError('name')).toMatch(/^expected a name of up to 64 letters, digits, spaces/);

    type('Name', 'stop-orphaned-loops');
    await submit();
    expect(screen.getByTestId('rule-errors').textContent).toContain(
      'match: needs at least one of agents, flags or sessionEnded (a process is never stopped for being adopted by PID 1 alone)',
    );

    fireEvent.click(within(editor()).getByRole('checkbox', { name: /^runaway/ }));
    type('Listens on port', '3000, http');
    type(/Command matches/, '(a)\\1');
    type('Older than (s)', '-5');
    await submit();
    expect(fieldError('ports')).toBe('expected a non-empty list of port numbers (1..65535)');
    expect(fieldError('commandPatterns')).toMatch(/^"\(a\)\\\\1" refused: RE2 cannot run it/);
    expect(fieldError('minAgeSeconds')).toBe('expected a number >= 0, got -5');
    expect(patches).toEqual([]);

    type('Listens on port', '3000 5173');
    type(/Command matches/, 'vite\nnext dev');
    type('Older than (s)', '60');
    // A name is checked against the others once the rule itself holds, as the core loads the list.
    await submit();
    expect(fieldError('name')).toBe('another rule already has this name');
    expect(fieldError('ports')).toBeNull();
    type('Name', 'hot dev servers');
    fireEvent.click(within(editor()).getByRole('radio', { name: /Stop the group/ }));
    type('Grace before SIGKILL (ms)', '2000');
    await submit();
    expect(patches).toEqual([
      {
        policies: [
          ...rules,
          {
            name: 'hot dev servers',
            match: {
              flags: ['runaway'],
              commandPatterns: ['vite', 'next dev'],
              ports: [3000, 5173],
              minAgeSeconds: 60,
            },
            action: 'stop',
            graceMs: 2000,
          },
        ],
      },
    ]);
    expect(screen.queryByTestId('rule-editor')).toBeNull();
    expect(screen.getAllByTestId('policy-rule')[2]!.querySelector('label')!.textContent).toBe(
      'hot dev servers — stop when runaway; command /vite/ or /next dev/; port 3000 or 5173; older than 60 s',
    );
  });

  it('edits and deletes a rule in place', async () => {
    const { patches } = setup(makeSettings({ policies: rules }));
    const edit = await screen.findByRole('button', { name: 'Edit big-memory' });
    await act(async () => fireEvent.click(edit));
    expect(
      (within(editor()).getByRole('checkbox', { name: /^memory hog/ }) as HTMLInputElement).checked,
    ).toBe(true);
    expect((within(editor()).getByRole('checkbox', { name: 'Enabled' }) as HTMLInputElement).checked).toBe(
      false,
    );
    fireEvent.click(within(editor()).getByRole('checkbox', { name: 'Enabled' }));
    type('CPU used at least (s)', '30');
    await submit('Save rule');
    expect(patches[0]).toEqual({
      policies: [
        rules[0],
        { name: 'big-memory', match: { flags: ['memory-hog'], minCpuSeconds: 30 }, action: 'notify' },
      ],
    });
    await act(async () =>
      fireEvent.click(screen.getByRole('button', { name: 'Delete stop-orphaned-loops' })),
    );
    expect(patches[1]).toEqual({
      policies: [
        { name: 'big-memory', match: { flags: ['memory-hog'], minCpuSeconds: 30 }, action: 'notify' },
      ],
    });
  });

  it('keeps the JSON as an advanced view, checked by the same validator before it is sent', async () => {
    const { patches } = setup(makeSettings({ policies: rules }));
    const json = (await screen.findByLabelText("The config file's policies list")) as HTMLTextAreaElement;
    expect(JSON.parse(json.value)).toEqual(rules);
    const save = screen.getByRole('button', { name: 'Save JSON' });
    fireEvent.change(json, { target: { value: '[{"name": "x",' } });
    await act(async () => fireEvent.click(save));
    expect(screen.getByTestId('policies-json-error').textContent).toMatch(/^Not valid JSON: /);
    fireEvent.change(json, {
      target: { value: JSON.stringify([{ name: 'zombies', match: { flags: ['zombie'] }, action: 'stop' }]) },
    });
    await act(async () => fireEvent.click(save));
    expect(screen.getByTestId('policies-json-error').textContent).toBe(
      'policies[0] "zombies" refused: match.flags: unknown flag "zombie" (known: orphan, leaderless, runaway, held-pipe, memory-hog, spawn-storm, session-ended)',
    );
    expect(patches).toEqual([]);
    const good = [{ name: 'orphans', match: { flags: ['orphan'] }, action: 'notify' }];
    fireEvent.change(json, { target: { value: JSON.stringify(good) } });
    await act(async () => fireEvent.click(save));
    expect(patches).toEqual([{ policies: good }]);
    expect(screen.getAllByTestId('policy-rule')).toHaveLength(1);
  });
});
