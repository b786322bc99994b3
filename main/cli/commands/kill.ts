import { COMMAND_SPECS } from '../command-specs';
import { parseCommandArgs } from '../parse-command-args';
import { commandThatMatters } from '../../../shared/words/command-summary';
import { keptLabel } from '../../../shared/words/keep-duration';
import { NUMERIC_SETTINGS } from '../../../shared/settings-table';
import type {
  GroupView,
  SignalRecord,
  Settings,
  TeardownProcessOutcome,
  TeardownResult,
} from '../../../shared/model';
import { stopGroupNow, stopTargetsNow, type StopNowOptions } from '../../core/facade/stop-now';
import { alreadyGone } from '../already-gone';
import { keepsRefused } from '../keeps-refused';
import { formatTable, printable } from '../terminal-text';
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
  const options: StopNowOptions = {
    graceMs,
    orphansOnly: values['orphans-only'],
    withEscaped: values['with-escaped'],
    dryRun: values['dry-run'],
    onKeptStop: warnKeptStop,
    keepsRefused,
  };
  if (!('groupId' in target)) {
    const by = 'port' in target ? { port: target.port } : { session: target.session };
    const stopped = await stopTargetsNow(settings, by, { ...options, anyOwner: values['any-owner'] });
    const what = 'port' in by ? `port ${by.port}` : `session ${by.session}`;
    return printStopped(what, stopped, values.json, out);
  }
  const { groupId } = target;
  const refuse = (reason: string): number => {
    if (values.json)
      out(JSON.stringify({ groupId, refused: reason, clean: false, processes: [], signals: [] }));
    else out(`corral kill: refused: ${reason}. Nothing was signalled.`);
    return 3;
  };
  const outcome = await stopGroupNow(settings, groupId, options);
  if (outcome.refused !== null) {
    const { kind, message } = outcome.refused;
    return kind === 'already-gone' ? alreadyGone(groupId, message, values.json, out) : refuse(message);
  }
  const { result } = outcome;
  out(values.json ? JSON.stringify(result) : renderTeardown(result));
  if (result.refused) return 3;
  return result.clean ? 0 : 1;
}

/**
 * `kill --port N` and `--session ID`: one outcome per group, each through the same teardown and
 * refusals as one group by id. Exit codes as for one group: 0 every targeted process gone, 1 some
 * survived (or a dry run), 3 refused with nothing signalled.
 */
function printStopped(
  what: string,
  stopped: Awaited<ReturnType<typeof stopTargetsNow>>,
  json: boolean,
  out: (text: string) => void,
): number {
  if (stopped.refused !== null) {
    if (json)
      out(JSON.stringify({ target: what, refused: stopped.refused, skipped: stopped.skipped, results: [] }));
    else out(`corral kill: refused: ${stopped.refused}. Nothing was signalled.`);
    return 3;
  }
  const results: TeardownResult[] = [];
  const skipped = [...stopped.skipped];
  // Resolved from the very snapshot they were stopped from: a group refused here is left alone, with why.
  for (const o of stopped.outcomes)
    if (o.result !== null) results.push(o.result);
    else skipped.push({ groupId: o.groupId, reason: o.refused ?? 'refused' });
  if (json) out(JSON.stringify({ target: what, refused: null, skipped, results }));
  else {
    const lines = [`${what}: ${results.length} group${results.length === 1 ? '' : 's'}.`];
    for (const s of skipped) lines.push(`Left alone ${s.groupId}: ${s.reason}.`);
    for (const r of results) lines.push(`— ${r.groupId}`, renderTeardown(r));
    out(lines.join('\n'));
  }
  if (results.every((r) => r.refused)) return 3;
  return results.every((r) => r.clean && !r.refused) ? 0 : 1;
}

/** A kept group stopped: the user kept it running, and may have forgotten (its keep ends once it is gone). */
function warnKeptStop(group: GroupView, result: TeardownResult): void {
  process.stderr.write(
    `corral kill: warning: group ${result.groupId} was kept (${keptLabel(group.kept!.until, Date.now())}); ` +
      `it was stopped as you asked${result.clean ? ' and its keep is released' : ''}.\n`,
  );
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
