import { COMMAND_SPECS } from '../command-specs';
import { parseCommandArgs } from '../parse-command-args';
import { commandThatMatters } from '../../../shared/words/command-summary';
import {
  DEFAULT_KEEP_MS,
  keptLabel,
  MAX_KEEP_MS,
  parseKeepDuration,
} from '../../../shared/words/keep-duration';
import type { GroupView, Settings } from '../../../shared/model';
import {
  keepNow,
  keepsInForce,
  unkeepNow,
  type GroupTarget,
  type KeepRecord,
} from '../../core/facade/keeps-now';
import { formatTable, printable } from '../terminal-text';
import { UsageError } from '../../common/usage-error';
import { targetOf } from '../flag-values';

const NOTE_MAX = 200;

function describe(target: GroupTarget): string {
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
  if (values.list) {
    if (positionals.length > 0 || values.port || values.session || values.for || values.note)
      throw new UsageError('--list takes no group and no other option but --json');
    // Keeps end with their group: those whose group exited or was stopped are released, not listed.
    const { keeps, sampledAt } = await keepsInForce(settings);
    return listKeeps(keeps, sampledAt, values.json, out);
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
  const now = Date.now();
  const { kept, refused } = await keepNow(settings, target, { until: now + forMs, note, now });
  if (kept.length === 0) {
    // A session's own words when it names no leftover to keep (none live, an ambiguous prefix).
    const none = refused ?? `there is no ${describe(target).replace(/^a /, '')} running now`;
    if (values.json)
      out(JSON.stringify({ kept: [], refused: refused ?? `no live ${describe(target).replace(/^a /, '')}` }));
    else out(`corral keep: ${none}. Nothing was kept.`);
    return 1;
  }
  if (values.json) {
    out(JSON.stringify({ kept: kept.map((k) => recordJson(k.record, now)) }));
    return 0;
  }
  for (const { group } of kept)
    out(
      `Kept ${group.id} (${commandOf(group)}): ${keptLabel(now + forMs, now)}. \`corral unkeep ${group.id}\` ends it.`,
    );
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
  const ended = await unkeepNow(settings, targetOf(values, positionals));
  if (values.json) out(JSON.stringify({ unkept: ended }));
  else if (ended.length === 0)
    out(`corral unkeep: ${describe(targetOf(values, positionals))} is not kept. Nothing changed.`);
  else for (const id of ended) out(`Unkept ${id}: it is flagged, notified and matched by policies again.`);
  return ended.length > 0 ? 0 : 1;
}
