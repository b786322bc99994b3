import type {
  Incident,
  IncidentEnd,
  IncidentKind,
  IncidentPhases,
  IncidentProcess,
  IncidentSpan,
  PolicyNote,
  SpawnStormFacts,
} from '../../../shared/model';
import { readPortFacts } from './incident-port-facts';
import { isPolicyNote } from './policy-journal-row';

// Records, so that a kind or end added to the model without being added here fails to compile.
const KNOWN_KINDS: Record<IncidentKind, true> = {
  orphan: true,
  runaway: true,
  'held-pipe': true,
  leaderless: true,
  'memory-hog': true,
  'spawn-storm': true,
};
const KNOWN_ENDS: Record<IncidentEnd, true> = {
  exited: true,
  'stopped-by-user': true,
  'stopped-by-policy': true,
  cleared: true,
  open: true,
  unknown: true,
};
const KINDS = Object.keys(KNOWN_KINDS) as IncidentKind[];
const ENDS = Object.keys(KNOWN_ENDS) as IncidentEnd[];

export type RowReading = { incident: Incident } | { problem: string };

const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

function isProcess(v: unknown): v is IncidentProcess {
  if (typeof v !== 'object' || v === null) return false;
  const p = v as Record<string, unknown>;
  return (
    Number.isSafeInteger(p.pid) &&
    typeof p.startKey === 'number' &&
    Number.isFinite(p.startKey) &&
    typeof p.command === 'string'
  );
}

function isSpans(v: unknown): v is IncidentSpan[] {
  return (
    Array.isArray(v) &&
    v.every(
      (s: unknown) =>
        typeof s === 'object' &&
        s !== null &&
        isTime((s as IncidentSpan).from) &&
        ((s as IncidentSpan).until === null || isTime((s as IncidentSpan).until)),
    )
  );
}

function isPhases(v: unknown): v is IncidentPhases {
  if (typeof v !== 'object' || v === null) return false;
  const p = v as Record<string, unknown>;
  return (
    (p.orphanedAt === null || isTime(p.orphanedAt)) &&
    (p.leaderlessAt === null || isTime(p.leaderlessAt)) &&
    isSpans(p.runaway) &&
    isSpans(p.heldPipe)
  );
}

function isSpawnStormFacts(v: unknown): v is SpawnStormFacts {
  if (typeof v !== 'object' || v === null) return false;
  const f = v as Record<string, unknown>;
  return (
    (f.reason === 'birth-rate' || f.reason === 'repeated-command' || f.reason === 'member-growth') &&
    [
      f.birthsPerMinute,
      f.repeatsPerMinute,
      f.peakBirthsPerMinute,
      f.members,
      f.peakMembers,
      f.births,
      f.unseenBirths,
    ].every(isCount) &&
    (f.endedAt === undefined || isTime(f.endedAt)) &&
    Array.isArray(f.repeated) &&
    f.repeated.every(
      (r: unknown) =>
        typeof r === 'object' &&
        r !== null &&
        typeof (r as { command?: unknown }).command === 'string' &&
        isCount((r as { count?: unknown }).count),
    )
  );
}

/** The phases a row from before phases existed (one row per flag) stands for. */
export function legacyPhases(kind: IncidentKind, openedAt: number, closedAt: number | null): IncidentPhases {
  const span = [{ from: openedAt, until: closedAt }];
  return {
    orphanedAt: kind === 'orphan' ? openedAt : null,
    leaderlessAt: kind === 'leaderless' ? openedAt : null,
    runaway: kind === 'runaway' ? span : [],
    heldPipe: kind === 'held-pipe' ? span : [],
  };
}

/**
 * Reads one stored incident body, checking every field a reader relies on: a row another version or a
 * damaged write left malformed is reported, never returned. Rows written before incidents had phases
 * are completed from their single flag.
 */
export function readIncidentRow(body: unknown): RowReading {
  if (typeof body !== 'string') return { problem: 'the row has no JSON body' };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { problem: 'the body is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { problem: 'the body is not an object' };
  const r = value as Record<string, unknown>;
  const id = typeof r.id === 'string' && r.id.length > 0 ? r.id : null;
  const bad = (what: string): RowReading => ({ problem: `${id ? `incident ${id}: ` : ''}${what}` });
  if (!id) return bad('id is missing');
  if (!KINDS.includes(r.kind as IncidentKind)) return bad(`kind ${JSON.stringify(r.kind)} is not known`);
  if (!isTime(r.openedAt)) return bad(`openedAt ${JSON.stringify(r.openedAt)} is not a time`);
  if (r.closedAt !== null && !isTime(r.closedAt))
    return bad(`closedAt ${JSON.stringify(r.closedAt)} is not a time`);
  if (!ENDS.includes(r.end as IncidentEnd)) return bad(`end ${JSON.stringify(r.end)} is not known`);
  if (!Array.isArray(r.processes) || !r.processes.every(isProcess))
    return bad('processes is not a list of {pid, startKey, command}');
  if (typeof r.groupId !== 'string') return bad('groupId is missing');
  if (!Number.isSafeInteger(r.pgid) || !Number.isSafeInteger(r.sid))
    return bad('pgid or sid is not a number');
  if (!isCount(r.cpuSeconds) || !isCount(r.peakRssBytes))
    return bad('cpuSeconds or peakRssBytes is not a number');
  if (r.agent !== null && typeof r.agent !== 'string') return bad('agent is neither a name nor null');
  if (r.agentPid !== null && !Number.isSafeInteger(r.agentPid)) return bad('agentPid is not a pid');
  const kind = r.kind as IncidentKind;
  const openedAt = r.openedAt;
  const closedAt = r.closedAt as number | null;
  if (r.phases !== undefined && !isPhases(r.phases)) return bad('phases is malformed');
  if (
    r.flags !== undefined &&
    (!Array.isArray(r.flags) || !r.flags.every((f) => KINDS.includes(f as IncidentKind)))
  )
    return bad('flags is not a list of incident kinds');
  if (r.policyNotes !== undefined && (!Array.isArray(r.policyNotes) || !r.policyNotes.every(isPolicyNote)))
    return bad('policyNotes is not a list of {policy, action, executed, at}');
  if (r.spawnStorm !== undefined && !isSpawnStormFacts(r.spawnStorm)) return bad('spawnStorm is malformed');
  const incident: Incident = {
    id,
    kind,
    agent: r.agent as string | null,
    agentPid: r.agentPid as number | null,
    groupId: r.groupId,
    pgid: r.pgid as number,
    sid: r.sid as number,
    processes: r.processes,
    openedAt,
    closedAt,
    cpuSeconds: r.cpuSeconds,
    peakRssBytes: r.peakRssBytes,
    end: r.end as IncidentEnd,
    flags: (r.flags as IncidentKind[] | undefined) ?? [kind],
    phases: (r.phases as IncidentPhases | undefined) ?? legacyPhases(kind, openedAt, closedAt),
    openedAtSource: r.openedAtSource === 'observed' ? 'observed' : 'noticed',
    earliestStartAt: isTime(r.earliestStartAt) ? r.earliestStartAt : null,
    closedAtSource:
      r.closedAtSource === 'observed' || r.closedAtSource === 'noticed' || r.closedAtSource === null
        ? r.closedAtSource
        : closedAt === null
          ? null
          : 'observed',
  };
  if (r.policyNotes !== undefined) incident.policyNotes = r.policyNotes as PolicyNote[];
  if (r.spawnStorm !== undefined) incident.spawnStorm = r.spawnStorm as SpawnStormFacts;
  Object.assign(incident, readPortFacts(r));
  return { incident };
}
