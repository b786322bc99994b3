import { parseArgs } from 'node:util';
import type { Settings, TeardownResult } from '../../../shared/model';
import { stopGroup } from '../../core/actions/stop-group';
import { parseGroupId } from '../../core/analysis/group-id';
import { parsePort } from '../../core/provenance/resolve-targets';
import { createSampler } from '../../core/sampling/create-sampler';
import { matcherFor, takeOneShotSnapshot } from '../../core/snapshot/one-shot-snapshot';
import { rememberedMembers } from '../../core/actions/remembered-members';
import { alreadyGone, announceStop } from '../../core/actions/resolve-group-id';
import { formatTable, printable } from '../terminal-text';
import { UsageError } from '../usage-error';
import { runKillBy } from './kill-by-provenance';

export const KILL_USAGE =
  'corral kill <group-id> | --port N [--any-owner] | --session ID  [--grace-ms N] [--orphans-only] [--with-escaped] [--dry-run] [--json]';

/** Exit codes: 0 every targeted process is gone (or the group already was); 1 some survived; 3 refused. */
export async function runKill(
  args: string[],
  settings: Settings,
  out: (text: string) => void,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      'grace-ms': { type: 'string' },
      'orphans-only': { type: 'boolean', default: false },
      'with-escaped': { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      port: { type: 'string' },
      session: { type: 'string' },
      'any-owner': { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: true,
  });
  const by = targetBy(values.port, values.session, positionals.length);
  if (by === null && positionals.length !== 1)
    throw new UsageError('expected exactly one group id (the GROUP column of corral ps)');
  const groupId = positionals[0] ?? '';
  if (by === null && !parseGroupId(groupId)) {
    throw new UsageError(
      `'${groupId}' is not a group id. Corral stops groups by the id corral ps shows (<pgid>:<pid>:<start>), never by a bare PID or PGID.`,
    );
  }
  let graceMs = settings.teardown.graceMs;
  if (values['grace-ms'] !== undefined) {
    graceMs = Number(values['grace-ms']);
    if (!Number.isInteger(graceMs) || graceMs < 0 || graceMs > 600_000) {
      throw new UsageError(
        `--grace-ms: expected a whole number of ms from 0 to 600000, got '${values['grace-ms']}'`,
      );
    }
  }
  if (by !== null) {
    const common = { anyOwner: values['any-owner'], graceMs, withEscaped: values['with-escaped'] };
    const flags = { orphansOnly: values['orphans-only'], dryRun: values['dry-run'], json: values.json };
    return runKillBy({ by, ...common, ...flags }, settings, out, renderTeardown);
  }
  const matcher = matcherFor(settings);
  const sampler = createSampler({ markerKeys: matcher.markerKeys });
  const { groups } = await takeOneShotSnapshot(settings, { intervalMs: 0, sampler });
  const refuse = (reason: string): number => {
    if (values.json)
      out(JSON.stringify({ groupId, refused: reason, clean: false, processes: [], signals: [] }));
    else out(`corral kill: refused: ${reason}. Nothing was signalled.`);
    return 3;
  };
  const outcome = await stopGroup(
    {
      groupId,
      orphansOnly: values['orphans-only'],
      withEscaped: values['with-escaped'],
      dryRun: values['dry-run'],
    },
    groups,
    {
      graceMs,
      sampler,
      remembered: rememberedMembers(groupId),
      beforeSignal: (group) => announceStop(group),
    },
  );
  if (outcome.refused !== null) {
    const { kind, message } = outcome.refused;
    return kind === 'already-gone' ? alreadyGone(groupId, message, values.json, out) : refuse(message);
  }
  const { result } = outcome;
  out(values.json ? JSON.stringify(result) : renderTeardown(result));
  if (result.refused) return 3;
  return result.clean ? 0 : 1;
}

/** `--port N` or `--session ID` in place of a group id; null when neither was given. */
function targetBy(
  port: string | undefined,
  session: string | undefined,
  positionals: number,
): { port: number } | { session: string } | null {
  if (port === undefined && session === undefined) return null;
  if (positionals > 0 || (port !== undefined && session !== undefined))
    throw new UsageError('name the groups one way: a group id, --port or --session');
  if (session !== undefined) {
    if (!/^[\w.-]{1,128}$/.test(session)) throw new UsageError(`--session: '${session}' is not a session id`);
    return { session };
  }
  const n = parsePort(port!);
  if (n === null) throw new UsageError(`--port: expected a port number from 1 to 65535, got '${port}'`);
  return { port: n };
}

export function renderTeardown(r: TeardownResult): string {
  const lines: string[] = [];
  if (r.refused) lines.push(`Refused: ${r.refused}. Nothing was signalled.`);
  else if (r.dryRun) lines.push(`Dry run: would signal group ${r.pgid} (${r.mode}); nothing was signalled.`);
  else
    lines.push(
      `Group ${r.pgid} (${r.mode}): ${r.clean ? 'every targeted process is gone' : 'NOT every process is gone'}.`,
    );
  for (const s of r.signals) lines.push(`  ${s.signal} → ${s.target}: ${s.result}`);
  if (r.processes.length > 0) {
    const rows = [['PID', 'OUTCOME', 'ENDED BY', 'AFTER', 'DETAIL', 'COMMAND']];
    for (const p of r.processes) {
      rows.push([
        String(p.pid),
        p.outcome,
        p.endedBy ?? '-',
        p.goneAfterMs === undefined ? '-' : `${p.goneAfterMs}ms`,
        p.reason ??
          (p.owner ? `owned by ${p.owner.user ?? p.owner.uid}` : p.state ? `state ${p.state}` : '-'),
        printable(p.command).slice(0, 120),
      ]);
    }
    lines.push(formatTable(rows));
  }
  return lines.join('\n');
}
