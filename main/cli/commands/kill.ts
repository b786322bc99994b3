import { COMMAND_SPECS } from '../command-specs';
import { parseCommandArgs } from '../parse-command-args';
import { commandThatMatters } from '../../../shared/command-summary';
import { GROUP_ID_PATTERN } from '../../../shared/group-id';
import type { SignalRecord, Settings, TeardownProcessOutcome, TeardownResult } from '../../../shared/model';
import { stopAndRecord } from '../../core/actions/stop-and-record';
import { parseGroupId } from '../../core/analysis/group-id';
import { parsePort } from '../../core/provenance/resolve-targets';
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
import { UsageError } from '../../common/usage-error';
import { runKillBy } from './kill-by-provenance';
import { paint, terminal, truncate, type Terminal } from '../terminal';

/** Exit codes: 0 every targeted process is gone (or the group already was); 1 some survived; 3 refused. */
export async function runKill(
  args: string[],
  settings: Settings,
  out: (text: string) => void,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(COMMAND_SPECS.kill, args);
  const by = targetBy(values.port, values.session, positionals.length);
  if (by === null && positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0
        ? 'expected a group id (the GROUP column of `corral ps`)'
        : `expected one group id, got ${positionals.length}`,
    );
  const groupId = positionals[0] ?? '';
  if (by === null && !parseGroupId(groupId)) throw new UsageError(groupIdProblem(groupId));
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

/** Why a string is not a group id Corral will act on, in words. */
export function groupIdProblem(id: string): string {
  const m = GROUP_ID_PATTERN.exec(id);
  if (m && Number(m[1]) <= 1) {
    return `'${id}': PGID ${m[1]} is never signalled (${m[1] === '0' ? "PGID 0 means the caller's own group" : "PGID 1 is init's group"})`;
  }
  if (m) return `'${id}' is not a valid group id (the pid part must be positive)`;
  return `'${id}' is not a group id: use the GROUP column of \`corral ps\` (<pgid>:<pid>:<start>), never by a bare PID or PGID`;
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
