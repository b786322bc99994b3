// What the tray shows, as plain data: decided here, drawn by tray-menu.ts.
import { BACKGROUND_TASK_LABEL, isLiveBackgroundTask } from '../../shared/background-task';
import { flagsInWords } from '../../shared/words/flag-words';
import type { GroupView, Snapshot } from '../../shared/model';
import {
  formatDuration,
  msUntilAgeReadsOtherwise,
  msUntilCountdownReadsOtherwise,
} from '../../shared/words/format';
import { formatCpu } from './format';
import { agentLabel, groupCommand, isFlagged, openIncidentCount } from './flagged-groups';

export const PAUSE_NOTIFICATIONS_MS = 60 * 60 * 1000;
export const MAX_GROUPS_PER_AGENT = 8;

export type TrayAction =
  | { kind: 'open-window' }
  | { kind: 'open-group'; groupId: string }
  | { kind: 'stop-group'; groupId: string; orphansOnly: boolean; description: string }
  /** Keep the group running (corral keep), for the default 8 h; or end its keep. */
  | { kind: 'keep-group'; groupId: string }
  | { kind: 'unkeep-group'; groupId: string }
  /** For `forMs` from when it is chosen (not drawn: a menu the same but for that is not drawn again). */
  | { kind: 'pause-notifications'; forMs: number }
  | { kind: 'resume-notifications' }
  | { kind: 'set-launch-at-login'; enabled: boolean }
  | { kind: 'install-cli' }
  | { kind: 'open-notification-settings' }
  | { kind: 'quit' };

export type TrayMenuItem =
  | { type: 'label'; label: string }
  | { type: 'separator' }
  | { type: 'action'; label: string; action: TrayAction }
  | { type: 'checkbox'; label: string; checked: boolean; action: TrayAction }
  | { type: 'submenu'; label: string; items: TrayMenuItem[] };

export interface TrayState {
  now: number;
  notificationsPausedUntil: number | null;
  launchAtLogin: boolean;
  /** Said after "Launch at login" when the tick alone would mislead (awaiting approval, dev run). */
  launchAtLoginNote?: string | null;
  /** How many problems the config file had when read: shown so the desktop user learns of them. */
  configProblems?: number;
  /** Offer "Install command-line tool…" (the packaged macOS app, whose CLI is inside it). */
  offerCliInstall?: boolean;
  /** A notification could not be shown (the user denied them, or the build is unsigned). */
  notificationsBlocked?: boolean;
}

export interface TrayMenuModel {
  /** Next to the icon on macOS: the open orphan + runaway count, empty when there is none. */
  title: string;
  tooltip: string;
  items: TrayMenuItem[];
}

function groupItem(group: GroupView, now: number): TrayMenuItem {
  const command = groupCommand(group);
  const description = `${command} (${agentLabel(group)}, group ${group.pgid})`;
  const stop: TrayMenuItem = group.containsAgent
    ? {
        type: 'action',
        label: 'Stop leftover processes…',
        action: { kind: 'stop-group', groupId: group.id, orphansOnly: true, description },
      }
    : {
        type: 'action',
        label: 'Stop group…',
        action: { kind: 'stop-group', groupId: group.id, orphansOnly: false, description },
      };
  const kept = group.kept
    ? `, kept, ${formatDuration(group.kept.until - now)} left`
    : isLiveBackgroundTask(group)
      ? `, ${BACKGROUND_TASK_LABEL}`
      : '';
  return {
    type: 'submenu',
    label: `${command} — ${formatCpu(group.cpuPercent)}, ${formatDuration(now - group.startedAt)} [${flagsInWords(group.flags).join(', ')}${kept}]`,
    items: [
      { type: 'label', label: `${group.processes.length} process(es), group ${group.pgid}` },
      { type: 'action', label: 'Show in Corral', action: { kind: 'open-group', groupId: group.id } },
      ...keepItems(group),
      stop,
    ],
  };
}

/** "Keep running" beside Stop (not for the agent's own group, which is never stopped whole). */
function keepItems(group: GroupView): TrayMenuItem[] {
  if (group.containsAgent) return [];
  return group.kept
    ? [{ type: 'action', label: 'Stop keeping it', action: { kind: 'unkeep-group', groupId: group.id } }]
    : [{ type: 'action', label: 'Keep running', action: { kind: 'keep-group', groupId: group.id } }];
}

function agentSections(snapshot: Snapshot, now: number): TrayMenuItem[] {
  const byAgent = new Map<string, GroupView[]>();
  for (const group of snapshot.groups.filter(isFlagged)) {
    const name = agentLabel(group);
    byAgent.set(name, [...(byAgent.get(name) ?? []), group]);
  }
  if (byAgent.size === 0) return [{ type: 'label', label: 'Nothing left behind' }];
  const items: TrayMenuItem[] = [];
  for (const name of [...byAgent.keys()].sort()) {
    const groups = byAgent.get(name)!.sort((a, b) => (b.cpuPercent ?? -1) - (a.cpuPercent ?? -1));
    items.push({ type: 'label', label: name });
    items.push(...groups.slice(0, MAX_GROUPS_PER_AGENT).map((g) => groupItem(g, now)));
    if (groups.length > MAX_GROUPS_PER_AGENT) {
      const more = groups.length - MAX_GROUPS_PER_AGENT;
      items.push({ type: 'action', label: `${more} more… (open Corral)`, action: { kind: 'open-window' } });
    }
  }
  return items;
}

function configItems({ configProblems = 0 }: TrayState): TrayMenuItem[] {
  if (configProblems === 0) return [];
  const label = `Config file: ${configProblems} problem${configProblems === 1 ? '' : 's'}, defaults used (see Settings)`;
  return [{ type: 'action', label, action: { kind: 'open-window' } }];
}

function notificationItem({ now, notificationsPausedUntil }: TrayState): TrayMenuItem {
  if (notificationsPausedUntil !== null && notificationsPausedUntil > now) {
    return {
      type: 'action',
      label: `Resume notifications (paused, ${formatDuration(notificationsPausedUntil - now)} left)`,
      action: { kind: 'resume-notifications' },
    };
  }
  return {
    type: 'action',
    label: 'Pause notifications for 1 hour',
    action: { kind: 'pause-notifications', forMs: PAUSE_NOTIFICATIONS_MS },
  };
}

export function buildTrayMenuModel(snapshot: Snapshot, state: TrayState): TrayMenuModel {
  const count = openIncidentCount(snapshot);
  return {
    title: count > 0 ? String(count) : '',
    tooltip:
      count > 0 ? `Corral: ${count} open incident${count === 1 ? '' : 's'}` : 'Corral: nothing left behind',
    items: [
      ...agentSections(snapshot, state.now),
      { type: 'separator' },
      { type: 'action', label: 'Open Corral', action: { kind: 'open-window' } },
      ...configItems(state),
      ...(state.notificationsBlocked
        ? [
            {
              type: 'action' as const,
              label: 'Notifications are off for Corral: allow them…',
              action: { kind: 'open-notification-settings' as const },
            },
          ]
        : []),
      notificationItem(state),
      {
        type: 'checkbox',
        label: state.launchAtLoginNote ? `Launch at login (${state.launchAtLoginNote})` : 'Launch at login',
        checked: state.launchAtLogin,
        action: { kind: 'set-launch-at-login', enabled: !state.launchAtLogin },
      },
      ...(state.offerCliInstall
        ? [
            {
              type: 'action' as const,
              label: 'Install command-line tool…',
              action: { kind: 'install-cli' as const },
            },
          ]
        : []),
      { type: 'separator' },
      { type: 'action', label: 'Quit Corral', action: { kind: 'quit' } },
    ],
  };
}

/**
 * How long until some text of the menu reads otherwise with no new snapshot (a group's age, the pause's
 * countdown), or null when nothing would: the worker sends snapshots only when what they show changed.
 */
export function msUntilMenuReadsOtherwise(snapshot: Snapshot, state: TrayState): number | null {
  const waits = snapshot.groups
    .filter(isFlagged)
    .map((g) => msUntilAgeReadsOtherwise(state.now - g.startedAt));
  for (const g of snapshot.groups)
    if (isFlagged(g) && g.kept && g.kept.until > state.now)
      waits.push(msUntilCountdownReadsOtherwise(g.kept.until - state.now));
  const paused = state.notificationsPausedUntil;
  if (paused !== null && paused > state.now) waits.push(msUntilCountdownReadsOtherwise(paused - state.now));
  return waits.length > 0 ? Math.min(...waits) : null;
}
