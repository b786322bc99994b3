import { COMMAND_SPECS } from '../command-specs';
import { parseCommandArgs } from '../parse-command-args';
import { commandThatMatters } from '../../../shared/command-summary';
import { NUMERIC_SETTINGS } from '../../../shared/settings-table';
import type { SignalRecord, Settings, TeardownProcessOutcome, TeardownResult } from '../../../shared/model';
import { stopAndRecord } from '../../core/actions/stop-and-record';
import { createSampler } from '../../core/sampling/create-sampler';
import { matcherFor } from '../../core/analysis/signatures';
import { takeOneShotSnapshot } from '../../core/snapshot/one-shot-snapshot';
import { rememberedMembers } from '../../core/actions/remembered-members';
import { stopRequestNote } from '../../core/actions/stop-request-note';
import { alreadyGone } from '../already-gone';
import { namedGroups } from '../recorded-group-ids';
import { noteKeptStop } from '../kept-stop';
import { keepsOrNone } from './keep-list';
import { formatTable, printable } from '../terminal-text';
import { runKillBy } from './kill-by-provenance';
import { targetOf, wholeNumberOf } from '../flag-values';
import { paint, terminal, truncate, type Terminal } from '../terminal';

/** Exit codes: 0 every targeted process is gone (or the group already was); 1 some survived; 3 refused. */
export async function runKill(
  args: string[],
  settings: Settings,
  out: (text: string) => void,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(COMMAND_SPECS.kill, args);
  const target = targetOf(values, positionals);
  const graceMs =
    values['grace-ms'] === undefined
      ? settings.teardown.graceMs
      : wholeNumberOf('grace-ms', values['grace-ms'], NUMERIC_SETTINGS.graceMs, ' ms');
  if (!('groupId' in target)) {
    const common = { anyOwner: values['any-owner'], graceMs, withEscaped: values['with-escaped'] };
    const flags = { orphansOnly: values['orphans-only'], dryRun: values['dry-run'], json: values.json };
    return runKillBy({ by: target, ...common, ...flags }, settings, out, renderTeardown);
  }
  const { groupId } = target;
  const matcher = matcherFor(settings);
  const sampler = createSampler({ markerKeys: matcher.markerKeys });
  const { groups } = await takeOneShotSnapshot(settings, {
    intervalMs: 0,
    sampler,
    named: namedGroups(),
    keeps: keepsOrNone(),
  });
  const refuse = (reason: string): number => {
    if (values.json)
      out(JSON.stringify({ groupId, refused: reason, clean: false, processes: [], signals: [] }));
    else out(`corral kill: refused: ${reason}. Nothing was signalled.`);
    return 3;
  };
  const outcome = await stopAndRecord(
    {
      groupId,
      orphansOnly: values['orphans-only'],
      withEscaped: values['with-escaped'],
      dryRun: values['dry-run'],
    },
    groups,
    { graceMs, sampler, remembered: rememberedMembers(groupId) },
    stopRequestNote(),
  );
  if (outcome.refused !== null) {
    const { kind, message } = outcome.refused;
    return kind === 'already-gone' ? alreadyGone(groupId, message, values.json, out) : refuse(message);
  }
  const { result } = outcome;
  noteKeptStop(outcome.group, result);
  out(values.json ? JSON.stringify(result) : renderTeardown(result));
  if (result.refused) return 3;
  return result.clean ? 0 : 1;
}

const OUTCOME_WORDS: Record<TeardownProcessOutcome['outcome'], string> = {
  'exited-after-term': 'ended by SIGTERM',
  killed: 'ended by SIGKILL',
  'already-gone': 'already gone',
  'not-permitted': 'not permitted',
  'still-alive': 'STILL ALIVE',
  'escaped-group': 'left the group, not signalled',
  skipped: 'skipped',
};

/** A signal worth showing: a clean stop's SIGCONT to an empty group (ESRCH) is not news. */
function signalLine(s: SignalRecord, clean: boolean): string | null {
  if (s.signal === 'SIGCONT' && s.result === 'ESRCH' && clean) return null;
  const target = s.target.startsWith('-') ? `group ${s.target.slice(1)}` : `pid ${s.target.split('@')[0]}`;
  const result =
    s.result === 'sent'
      ? 'sent'
      : s.result === 'ESRCH'
        ? 'nobody left to receive it'
        : s.result === 'EPERM'
          ? 'not permitted'
          : 'failed';
  return `  ${s.signal} to ${target}: ${result}`;
}

export function renderTeardown(r: TeardownResult, term: Terminal = terminal()): string {
  const lines: string[] = [];
  const mode = r.mode === 'orphans-only' ? ' (orphans only)' : '';
  if (r.refused) lines.push(`Refused: ${r.refused}. Nothing was signalled.`);
  else if (r.dryRun) lines.push(`Dry run: would signal group ${r.pgid}${mode}; nothing was signalled.`);
  else
    lines.push(
      r.clean
        ? paint(term, 'green', `Group ${r.pgid}${mode}: every targeted process is gone.`)
        : paint(term, 'red', `Group ${r.pgid}${mode}: NOT every process is gone.`),
    );
  for (const s of r.signals) {
    const line = signalLine(s, r.clean);
    if (line) lines.push(line);
  }
  if (r.processes.length > 0) {
    const rows = [['PID', 'OUTCOME', 'AFTER', 'DETAIL', 'COMMAND']];
    for (const p of r.processes) {
      rows.push([
        String(p.pid),
        OUTCOME_WORDS[p.outcome],
        p.goneAfterMs === undefined ? '-' : `${p.goneAfterMs} ms`,
        p.reason ??
          (p.owner ? `owned by ${p.owner.user ?? p.owner.uid}` : p.state ? `state ${p.state}` : '-'),
        printable(commandThatMatters(p.command)),
      ]);
    }
    lines.push(
      ...formatTable(rows)
        .split('\n')
        .map((l) => truncate(l, term.width)),
    );
  }
  return lines.join('\n');
}
