import type { Settings, TeardownResult } from '../../../shared/model';
import { stopAndRecord } from '../../core/actions/stop-and-record';
import { stopRequestNote } from '../../core/actions/stop-request-note';
import { resolvePortTargets, resolveSessionTargets } from '../../core/provenance/resolve-targets';
import { createSampler } from '../../core/sampling/create-sampler';
import { matcherFor } from '../../core/analysis/signatures';
import { takeOneShotSnapshot } from '../../core/snapshot/one-shot-snapshot';
import { namedGroups } from '../recorded-group-ids';
import { noteKeptStop } from '../kept-stop';
import { keepsOrNone } from './keep-list';

export interface KillByOptions {
  by: { port: number } | { session: string };
  anyOwner: boolean;
  graceMs: number;
  orphansOnly: boolean;
  withEscaped: boolean;
  dryRun: boolean;
  json: boolean;
}

/**
 * `corral kill --port N` and `--session ID`: resolves them to the groups they name, then stops each
 * group through the same teardown (and the same refusals) as `corral kill <group-id>`, one outcome per
 * group. Exit codes as for one group: 0 every targeted process gone, 1 some survived (or a dry run),
 * 3 refused with nothing signalled.
 */
export async function runKillBy(
  o: KillByOptions,
  settings: Settings,
  out: (text: string) => void,
  renderTeardown: (r: TeardownResult) => string,
): Promise<number> {
  const sampler = createSampler({ markerKeys: matcherFor(settings).markerKeys });
  const { groups } = await takeOneShotSnapshot(settings, {
    intervalMs: 0,
    sampler,
    named: namedGroups(),
    keeps: keepsOrNone(),
    portsOfAll: 'port' in o.by,
  });
  const resolved =
    'port' in o.by
      ? resolvePortTargets(groups, o.by.port, o.anyOwner, process.getuid?.() ?? null)
      : resolveSessionTargets(groups, o.by.session);
  const what = 'port' in o.by ? `port ${o.by.port}` : `session ${o.by.session}`;
  if (resolved.refused) {
    if (o.json)
      out(
        JSON.stringify({ target: what, refused: resolved.refused, skipped: resolved.skipped, results: [] }),
      );
    else out(`corral kill: refused: ${resolved.refused}. Nothing was signalled.`);
    return 3;
  }
  const results: TeardownResult[] = [];
  for (const groupId of resolved.groupIds) {
    // A stop the user asked for by port or session is theirs, as one asked by group id is.
    const outcome = await stopAndRecord(
      { groupId, orphansOnly: o.orphansOnly, withEscaped: o.withEscaped, dryRun: o.dryRun },
      groups,
      { graceMs: o.graceMs, sampler },
      stopRequestNote(),
    );
    // Resolved from this very snapshot, so the group is there; a refusal would be a bug, not a skip.
    if (outcome.refused !== null) throw new Error(`group ${groupId} vanished from its own snapshot`);
    noteKeptStop(outcome.group, outcome.result);
    results.push(outcome.result);
  }
  if (o.json) out(JSON.stringify({ target: what, refused: null, skipped: resolved.skipped, results }));
  else {
    const lines = [`${what}: ${results.length} group${results.length === 1 ? '' : 's'}.`];
    for (const s of resolved.skipped) lines.push(`Left alone ${s.groupId}: ${s.reason}.`);
    for (const r of results) lines.push(`— ${r.groupId}`, renderTeardown(r));
    out(lines.join('\n'));
  }
  if (results.every((r) => r.refused)) return 3;
  return results.every((r) => r.clean && !r.refused) ? 0 : 1;
}
