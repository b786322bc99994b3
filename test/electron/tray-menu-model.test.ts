import { describe, expect, it } from 'vitest';
import {
  buildTrayMenuModel,
  MAX_GROUPS_PER_AGENT,
  msUntilMenuReadsOtherwise,
  type TrayMenuItem,
} from '../../main/electron/tray-menu-model';
import { toMenuTemplate } from '../../main/electron/tray-menu';
import type { GroupView, ProcessView, Snapshot } from '../../shared/model';
import { makeGroup } from '../transport/fake-corral-service';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const HOUR = 3_600_000;
const state = { now: NOW, notificationsPausedUntil: null, launchAtLogin: false };

function proc(command: string, cpuPercent: number | null): ProcessView {
  return {
    pid: 10,
    ppid: 1,
    pgid: 10,
    sid: 10,
    uid: 0,
    state: 'R',
    startedAt: NOW - HOUR,
    cpuPercent,
    rssBytes: 0,
    command,
    flags: ['orphan'],
    name: command.split(' ')[0]!,
    argv: command.split(' '),
    tty: null,
    cpuSeconds: 1,
    startKey: 1,
  };
}

function group(id: number, overrides: Partial<GroupView> = {}): GroupView {
  return makeGroup({
    id: `${id}:${id}:1`,
    pgid: id,
    startedAt: NOW - 3 * HOUR - 12 * 60_000,
    processes: [proc(`sleep ${id}`, 95)],
    cpuPercent: 95,
    ...overrides,
  });
}

const snap = (groups: GroupView[]): Snapshot => ({ seq: 1, sampledAt: NOW, groups });
const labels = (items: TrayMenuItem[]) => items.map((i) => ('label' in i ? i.label : `--${i.type}--`));

describe('buildTrayMenuModel', () => {
  it('tells of config file problems, and opens the window on them', () => {
    const model = buildTrayMenuModel(snap([]), { ...state, configProblems: 2 });
    const item = model.items.find((i) => i.type === 'action' && i.label.startsWith('Config file'));
    expect(item).toMatchObject({
      label: 'Config file: 2 problems, defaults used (see Settings)',
      action: { kind: 'open-window' },
    });
    const clean = buildTrayMenuModel(snap([]), state);
    expect(labels(clean.items).some((l) => l.startsWith('Config file'))).toBe(false);
  });

  it('shows a calm menu and no title when nothing is flagged', () => {
    const model = buildTrayMenuModel(snap([group(5, { flags: [] })]), state);
    expect(model.title).toBe('');
    expect(model.tooltip).toBe('Corral: nothing left behind');
    expect(labels(model.items)).toEqual([
      'Nothing left behind',
      '--separator--',
      'Open Corral',
      'Pause notifications for 1 hour',
      'Launch at login',
      '--separator--',
      'Quit Corral',
    ]);
  });

  it('titles the count of open orphan + runaway incidents', () => {
    const groups = [
      group(1, { flags: ['orphan'] }),
      group(2, { flags: ['orphan', 'runaway'] }),
      group(3, { flags: ['held-pipe'] }),
      group(4, { flags: [] }),
    ];
    const model = buildTrayMenuModel(snap(groups), state);
    expect(model.title).toBe('3');
    expect(model.tooltip).toBe('Corral: 3 open incidents');
  });

  it('lists agents with their flagged groups, busiest first, each with CPU, age and Stop group…', () => {
    const groups = [
      group(1, { agent: { name: 'codex', pid: 9 }, cpuPercent: 12 }),
      group(2, { cpuPercent: 40 }),
      group(3, { cpuPercent: 99.6, flags: ['orphan', 'runaway'] }),
      group(4, { agent: null }),
    ];
    const model = buildTrayMenuModel(snap(groups), state);
    expect(labels(model.items).slice(0, 7)).toEqual([
      'claude-code',
      'sleep 3 — 100% CPU, 3h12m [orphan, runaway]',
      'sleep 2 — 40% CPU, 3h12m [orphan]',
      'codex',
      'sleep 1 — 12% CPU, 3h12m [orphan]',
      'unknown agent',
      'sleep 4 — 95% CPU, 3h12m [orphan]',
    ]);
    const first = model.items[1] as Extract<TrayMenuItem, { type: 'submenu' }>;
    expect(first.items).toEqual([
      { type: 'label', label: '1 process(es), group 3' },
      { type: 'action', label: 'Show in Corral', action: { kind: 'open-group', groupId: '3:3:1' } },
      { type: 'action', label: 'Keep running', action: { kind: 'keep-group', groupId: '3:3:1' } },
      {
        type: 'action',
        label: 'Stop group…',
        action: {
          kind: 'stop-group',
          groupId: '3:3:1',
          orphansOnly: false,
          description: 'sleep 3 (claude-code, group 3)',
        },
      },
    ]);
  });

  it('shows a kept group apart, offers to stop keeping it, and counts it in no incident', () => {
    const until = state.now + 3 * 3_600_000;
    const model = buildTrayMenuModel(
      snap([group(5, { kept: { until, since: state.now, note: null } })]),
      state,
    );
    expect(model.title).toBe('');
    const sub = model.items[1] as Extract<TrayMenuItem, { type: 'submenu' }>;
    expect(sub.label).toContain('[orphan, kept, 3h00m left]');
    expect(sub.items).toContainEqual({
      type: 'action',
      label: 'Stop keeping it',
      action: { kind: 'unkeep-group', groupId: '5:5:1' },
    });
    expect(sub.items.some((i) => i.type === 'action' && i.action.kind === 'keep-group')).toBe(false);
  });

  it('offers only the leftovers when the group holds the agent itself', () => {
    const model = buildTrayMenuModel(snap([group(7, { containsAgent: true })]), state);
    const sub = model.items[1] as Extract<TrayMenuItem, { type: 'submenu' }>;
    expect(sub.items[2]).toMatchObject({
      label: 'Stop leftover processes…',
      action: { kind: 'stop-group', orphansOnly: true },
    });
  });

  it('caps each agent at a few groups and points to the window for the rest', () => {
    const groups = Array.from({ length: 40 }, (_, i) => group(100 + i));
    const model = buildTrayMenuModel(snap(groups), state);
    expect(model.title).toBe('40');
    expect(model.items.filter((i) => i.type === 'submenu')).toHaveLength(MAX_GROUPS_PER_AGENT);
    expect(model.items).toContainEqual({
      type: 'action',
      label: `${40 - MAX_GROUPS_PER_AGENT} more… (open Corral)`,
      action: { kind: 'open-window' },
    });
  });

  it.each([
    [null, 'Pause notifications for 1 hour', { kind: 'pause-notifications', forMs: HOUR }],
    [NOW + 45 * 60_000, 'Resume notifications (paused, 45m00s left)', { kind: 'resume-notifications' }],
    [NOW - 1, 'Pause notifications for 1 hour', { kind: 'pause-notifications', forMs: HOUR }],
  ])('notification item when paused until %s', (pausedUntil, label, action) => {
    const model = buildTrayMenuModel(snap([]), { ...state, notificationsPausedUntil: pausedUntil });
    expect(model.items).toContainEqual({ type: 'action', label, action });
  });

  it.each([true, false])('launch at login checkbox reflects %s and toggles', (enabled) => {
    const model = buildTrayMenuModel(snap([]), { ...state, launchAtLogin: enabled });
    expect(model.items).toContainEqual({
      type: 'checkbox',
      label: 'Launch at login',
      checked: enabled,
      action: { kind: 'set-launch-at-login', enabled: !enabled },
    });
  });

  it('falls back to the PGID when a group has no readable members', () => {
    const model = buildTrayMenuModel(snap([group(8, { processes: [], cpuPercent: null })]), state);
    expect(labels(model.items)[1]).toBe('group 8 — CPU ?, 3h12m [orphan]');
  });
});

describe('msUntilMenuReadsOtherwise', () => {
  // The whole model, as the tray compares it before drawing again.
  const menuText = (snapshot: Snapshot, now: number, pausedUntil: number | null = null): string =>
    JSON.stringify(buildTrayMenuModel(snapshot, { ...state, now, notificationsPausedUntil: pausedUntil }));

  it('waits for the first flagged group whose age turns over, and ignores groups the menu does not show', () => {
    const young = group(1, { startedAt: NOW - 20_400 });
    const old = group(2, { startedAt: NOW - 3 * HOUR - 30_000 });
    const calm = group(3, { flags: [], startedAt: NOW - 100 });
    const snapshot = snap([young, old, calm]);
    const wait = msUntilMenuReadsOtherwise(snapshot, { ...state });
    expect(wait).toBe(600);
    expect(menuText(snapshot, NOW + wait! - 1)).toBe(menuText(snapshot, NOW));
    expect(menuText(snapshot, NOW + wait!)).not.toBe(menuText(snapshot, NOW));
    expect(msUntilMenuReadsOtherwise(snap([old, calm]), { ...state })).toBe(30_000);
  });

  it("counts the pause down to its end, when the menu offers to pause again; nothing to wait for when nothing's shown", () => {
    const snapshot = snap([]);
    expect(msUntilMenuReadsOtherwise(snapshot, { ...state })).toBeNull();
    const pausedUntil = NOW + 400;
    const wait = msUntilMenuReadsOtherwise(snapshot, { ...state, notificationsPausedUntil: pausedUntil });
    expect(wait).toBe(401);
    expect(menuText(snapshot, NOW + wait! - 2, pausedUntil)).toBe(menuText(snapshot, NOW, pausedUntil));
    expect(menuText(snapshot, NOW + wait!, pausedUntil)).toContain('Pause notifications for 1 hour');
  });
});

describe('toMenuTemplate', () => {
  it('draws the model without deciding anything, and routes clicks to actions', () => {
    const clicked: unknown[] = [];
    const model = buildTrayMenuModel(snap([group(3)]), state);
    const template = toMenuTemplate(model.items, (a) => clicked.push(a));
    expect(template[0]).toEqual({ label: 'claude-code', enabled: false });
    const submenu = template[1]!.submenu as Array<{ label?: string; click?: () => void }>;
    submenu.find((i) => i.label === 'Stop group…')!.click!();
    template.find((i) => i.label === 'Quit Corral')!.click!(
      undefined as never,
      undefined,
      undefined as never,
    );
    expect(clicked).toEqual([
      {
        kind: 'stop-group',
        groupId: '3:3:1',
        orphansOnly: false,
        description: 'sleep 3 (claude-code, group 3)',
      },
      { kind: 'quit' },
    ]);
    expect(template.find((i) => i.label === 'Launch at login')).toMatchObject({
      type: 'checkbox',
      checked: false,
    });
  });
});
