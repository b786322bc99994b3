import { COMMAND_SPECS } from '../command-specs';
import { parseCommandArgs } from '../parse-command-args';
import { commandThatMatters } from '../../../shared/command-summary';
import { keptLabel, parseKeepDuration } from '../../../shared/keep-duration';
import type { GroupView, Settings } from '../../../shared/model';
import { groupsOfSession, groupsOnPort } from '../../core/provenance/resolve-targets';
import { takeOneShotSnapshot } from '../../core/snapshot/one-shot-snapshot';
import { namedGroups } from '../recorded-group-ids';
import {
  addKeep,
  DEFAULT_KEEP_MS,
  MAX_KEEP_MS,
  releaseEndedKeeps,
  removeKeepById,
  removeKeeps,
} from '../../core/storage/keeps';
import type { KeepRecord } from '../../core/analysis/kept-marks';
import { formatTable, printable } from '../terminal-text';
import { UsageError } from '../../common/usage-error';
import { cliDataDir } from './keep-list';
import { targetOf, type Target } from '../flag-values';

const NOTE_MAX = 200;

/** The live groups a target names: one by id, the listeners of a port, or a session's leftovers. */
async function resolve(target: Target, settings: Settings): Promise<GroupView[]> {
  const { groups } = await takeOneShotSnapshot(settings, {
    intervalMs: 0,
    named: namedGroups(),
    portsOfAll: 'port' in target,
  });
  if ('groupId' in target) return groups.filter((g) => g.id === target.groupId);
  if ('port' in target) return groupsOnPort(groups, target.port);
  const matched = groupsOfSession(groups, target.session);
  if (matched === null)
    throw new UsageError(`--session: '${target.session}' is the start of more than one session id`);
  // A session's leftovers: never the group holding the agent itself.
  return matched.filter((g) => !g.containsAgent);
}

function describe(target: Target): string {
  if ('groupId' in target) return `group ${target.groupId}`;
  if ('port' in target) return `a group listening on port ${target.port}`;
  return `a leftover group of session ${target.session}`;
}

function commandOf(g: GroupView): string {
  const p = g.processes.find((q) => q.pid === g.leaderPid) ?? g.processes[0];
  return p ? printable(commandThatMatters(p.command)).slice(0, 60) : `group ${g.pgid}`;
}

const recordJson = (k: KeepRecord, now: number) => ({
  groupId: k.groupId,
  pgid: k.pgid,
  since: k.since,
  until: k.until,
  leftMs: Math.max(0, k.until - now),
  note: k.note,
});

/** `corral keep <id|--port N|--session S> [--for 8h] [--note …]`, `corral keep --list`. Exit 1: nothing to keep. */
export async function runKeep(
  args: string[],
  settings: Settings,
  out: (text: string) => void,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(COMMAND_SPECS.keep, args);
  const dataDir = cliDataDir();
  if (values.list) {
    if (positionals.length > 0 || values.port || values.session || values.for || values.note)
      throw new UsageError('--list takes no group and no other option but --json');
    // Keeps end with their group: those whose group exited or was stopped are released, not listed.
    const { groups, sampledAt } = await takeOneShotSnapshot(settings, {
      intervalMs: 0,
      named: namedGroups(),
    });
    return listKeeps(releaseEndedKeeps(dataDir, groups, sampledAt), sampledAt, values.json, out);
  }
  const target = targetOf(values, positionals);
  let forMs = DEFAULT_KEEP_MS;
  if (values.for !== undefined) {
    const parsed = parseKeepDuration(values.for);
    if (parsed === null || parsed > MAX_KEEP_MS)
      throw new UsageError(
        `--for: expected a duration such as 30m, 8h or 2d (at most 30d), got '${values.for}'`,
      );
    forMs = parsed;
  }
  const note = values.note === undefined ? null : values.note.trim().slice(0, NOTE_MAX) || null;
  const groups = await resolve(target, settings);
  if (groups.length === 0) {
    if (values.json)
      out(JSON.stringify({ kept: [], refused: `no live ${describe(target).replace(/^a /, '')}` }));
    else
      out(`corral keep: there is no ${describe(target).replace(/^a /, '')} running now. Nothing was kept.`);
    return 1;
  }
  const now = Date.now();
  const records = groups.map((g) => addKeep(dataDir, g, { until: now + forMs, note, now }));
  if (values.json) {
    out(JSON.stringify({ kept: records.map((k) => recordJson(k, now)) }));
    return 0;
  }
  for (const g of groups)
    out(`Kept ${g.id} (${commandOf(g)}): ${keptLabel(now + forMs, now)}. \`corral unkeep ${g.id}\` ends it.`);
  return 0;
}

function listKeeps(keeps: KeepRecord[], now: number, json: boolean, out: (text: string) => void): number {
  const live = keeps.filter((k) => k.until > now).sort((a, b) => a.until - b.until);
  if (json) {
    out(JSON.stringify({ keeps: live.map((k) => recordJson(k, now)) }));
    return 0;
  }
  if (live.length === 0) {
    out('No group is kept. (`corral keep <group-id>` keeps one running without flags nagging.)');
    return 0;
  }
  const rows = [['GROUP', 'KEPT', 'NOTE']];
  for (const k of live) rows.push([k.groupId, keptLabel(k.until, now), printable(k.note ?? '')]);
  out(formatTable(rows));
  return 0;
}

/** `corral unkeep <id|--port N|--session S>`. Exit 1: nothing named was kept. */
export async function runUnkeep(
  args: string[],
  settings: Settings,
  out: (text: string) => void,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(COMMAND_SPECS.unkeep, args);
  const target = targetOf(values, positionals);
  const dataDir = cliDataDir();
  const now = Date.now();
  const groups = await resolve(target, settings);
  const ended: string[] = [];
  for (const g of groups) if (removeKeeps(dataDir, g, now) > 0) ended.push(g.id);
  // A group already gone (or known by a new anchor) can still be unkept by the id it was kept under.
  if ('groupId' in target && ended.length === 0 && removeKeepById(dataDir, target.groupId) > 0)
    ended.push(target.groupId);
  if (values.json) out(JSON.stringify({ unkept: ended }));
  else if (ended.length === 0) out(`corral unkeep: ${describe(target)} is not kept. Nothing changed.`);
  else for (const id of ended) out(`Unkept ${id}: it is flagged, notified and matched by policies again.`);
  return ended.length > 0 ? 0 : 1;
}
