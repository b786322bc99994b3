// Whether a new snapshot deserves a desktop notification, as a pure decision. Each orphan, runaway or
// spawn-storm
// incident (one group, one kind) is announced at most once; a burst (one `&` loop leaving 40 children)
// is one notification, and anything new within the quiet window after it only moves the tray count.
import type { GroupView, Settings, Snapshot } from '../../shared/model';
import { formatDuration } from '../../shared/words/format';
import { formatCpu } from './format';
import { agentLabel, groupCommand, incidentFlags, orphanedSince, type IncidentFlag } from './flagged-groups';
import { leftBehindSentence, leftoverWords, type LeftoverWords } from './leftover-text';
import { spawnStormNow } from '../../shared/words/spawn-storm-words';

export const QUIET_WINDOW_MS = 60_000;

export interface NotificationState {
  /** Incidents already announced or deliberately passed over, while they stay open. */
  seen: ReadonlySet<string>;
  lastShownAt: number | null;
}

export const INITIAL_NOTIFICATION_STATE: NotificationState = { seen: new Set(), lastShownAt: null };

export interface Notice {
  title: string;
  body: string;
  /** The group a click opens; the worst one in a burst. */
  groupId: string;
  /** Offer a "Stop group" action (single incident only; a burst is reviewed in the window). */
  stop: { groupId: string; orphansOnly: boolean } | null;
}

export interface NotificationDecision {
  notice: Notice | null;
  state: NotificationState;
  /** Why nothing was shown although something new appeared (for logs and tests). */
  suppressed: 'disabled' | 'paused' | 'quiet-window' | null;
}

interface Fresh {
  group: GroupView;
  kind: IncidentFlag;
}

const incidentKey = (groupId: string, kind: IncidentFlag) => `${groupId}#${kind}`;

const TITLE: Record<IncidentFlag, string> = {
  orphan: 'process left behind',
  runaway: 'runaway process',
  'spawn-storm': 'processes started without end',
};

/** A spawn storm in the words the CLI and the UI use: "starts 14,550 processes a minute, mostly …". */
function stormBody(command: string, group: GroupView, now: number): string {
  const storm = group.spawnStorm ? spawnStormNow(group.spawnStorm) : 'keeps starting processes';
  return `${command} ${storm}; running for ${formatDuration(now - group.startedAt)}.`;
}

/** The wording where the session, tool call or ports are known: the project, the command, the port. */
function describeKnown({ group, kind }: Fresh, w: LeftoverWords, now: number): Notice {
  const why = w.why ? ` (${w.why})` : '';
  const body =
    kind === 'spawn-storm'
      ? stormBody(`${w.command}${w.where}${why}`, group, now)
      : kind === 'orphan'
        ? `${leftBehindSentence(w)}${why}, ${formatDuration(now - orphanedSince(group))} ago (${formatCpu(group.cpuPercent)}).`
        : `${w.command}${w.where}${why} has been using ${formatCpu(group.cpuPercent)}; running for ${formatDuration(now - group.startedAt)}.`;
  return {
    title: `${w.who}: ${TITLE[kind]}`,
    body,
    groupId: group.id,
    stop: { groupId: group.id, orphansOnly: group.containsAgent },
  };
}

function describeOne({ group, kind }: Fresh, now: number): Notice {
  const known = leftoverWords(group);
  if (known) return describeKnown({ group, kind }, known, now);
  const command = groupCommand(group);
  const body =
    kind === 'spawn-storm'
      ? stormBody(command, group, now)
      : kind === 'orphan'
        ? `${command} kept running after its tool call ended, ${formatDuration(now - orphanedSince(group))} ago (${formatCpu(group.cpuPercent)}).`
        : `${command} has been using ${formatCpu(group.cpuPercent)}; running for ${formatDuration(now - group.startedAt)}.`;
  return {
    title: `${agentLabel(group)}: ${TITLE[kind]}`,
    body,
    groupId: group.id,
    stop: { groupId: group.id, orphansOnly: group.containsAgent },
  };
}

function describeBurst(fresh: Fresh[], now: number): Notice {
  const agents = [...new Set(fresh.map((f) => agentLabel(f.group)))].sort();
  const orphans = fresh.filter((f) => f.kind === 'orphan').length;
  const runaways = fresh.filter((f) => f.kind === 'runaway').length;
  const storms = fresh.filter((f) => f.kind === 'spawn-storm').length;
  const what = [
    orphans && `${orphans} left behind`,
    runaways && `${runaways} runaway`,
    storms && `${storms} starting processes without end`,
  ]
    .filter(Boolean)
    .join(', ');
  const oldest = Math.min(
    ...fresh.map((f) => (f.kind === 'orphan' ? orphanedSince(f.group) : f.group.startedAt)),
  );
  const worst = [...fresh].sort((a, b) => (b.group.cpuPercent ?? -1) - (a.group.cpuPercent ?? -1))[0]!;
  return {
    title: `${agents.length === 1 ? agents[0] : agents.join(', ')}: ${fresh.length} new incidents`,
    body: `${what}; the oldest for ${formatDuration(now - oldest)}. Open Corral to review them.`,
    groupId: worst.group.id,
    stop: null,
  };
}

export function decideNotification(
  snapshot: Snapshot,
  state: NotificationState,
  {
    now,
    settings,
    quietWindowMs = QUIET_WINDOW_MS,
  }: { now: number; settings: Settings['notifications']; quietWindowMs?: number },
): NotificationDecision {
  const open: Fresh[] = snapshot.groups.flatMap((group) =>
    incidentFlags(group).map((kind) => ({ group, kind })),
  );
  // Forget incidents that closed, so a group that turns runaway again is news again.
  const seen = new Set(open.map((f) => incidentKey(f.group.id, f.kind)));
  const fresh = open.filter((f) => !state.seen.has(incidentKey(f.group.id, f.kind)));
  const next = (lastShownAt: number | null): NotificationState => ({ seen, lastShownAt });

  if (fresh.length === 0) return { notice: null, state: next(state.lastShownAt), suppressed: null };
  if (!settings.enabled) return { notice: null, state: next(state.lastShownAt), suppressed: 'disabled' };
  if (settings.pausedUntil !== null && settings.pausedUntil > now) {
    return { notice: null, state: next(state.lastShownAt), suppressed: 'paused' };
  }
  if (state.lastShownAt !== null && now - state.lastShownAt < quietWindowMs) {
    return { notice: null, state: next(state.lastShownAt), suppressed: 'quiet-window' };
  }
  const notice = fresh.length === 1 ? describeOne(fresh[0]!, now) : describeBurst(fresh, now);
  return { notice, state: next(now), suppressed: null };
}
