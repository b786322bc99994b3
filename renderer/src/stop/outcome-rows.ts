import type { ProcessView, TeardownProcessOutcome, TeardownResult } from '../../../shared/model';

export type RowOutcome = TeardownProcessOutcome['outcome'] | 'pending';

export interface OutcomeRow {
  pid: number;
  command: string;
  outcome: RowOutcome;
  label: string;
}

export function describeOutcome(o: TeardownProcessOutcome): string {
  const after = o.goneAfterMs !== undefined ? ` after ${o.goneAfterMs} ms` : '';
  const why = o.reason ? `: ${o.reason}` : '';
  switch (o.outcome) {
    case 'exited-after-term':
      return `ended by SIGTERM${after}`;
    case 'killed':
      return `did not stop on SIGTERM; ended by SIGKILL${after}`;
    case 'already-gone':
      return 'had already exited; nothing sent';
    case 'not-permitted': {
      const owner = o.owner ? ` (owned by ${o.owner.user ?? 'uid'} ${o.owner.uid})` : '';
      return `refused: not permitted${owner}${why}`;
    }
    case 'still-alive':
      return `still alive${o.state ? ` (state ${o.state})` : ''}${why}`;
    case 'escaped-group':
      return `left the group, not signalled${why}`;
    case 'skipped':
      return `skipped${why}`;
  }
}

function pendingLabel(result: TeardownResult | null): string {
  const last = result?.signals[result.signals.length - 1];
  return last ? `${last.signal} sent, waiting` : 'waiting';
}

/**
 * One row per targeted process, in the order shown before confirming, then any process the core
 * reported that was not in that list.
 */
export function outcomeRows(targets: readonly ProcessView[], result: TeardownResult | null): OutcomeRow[] {
  const reported = new Map((result?.processes ?? []).map((p) => [p.pid, p]));
  const rows: OutcomeRow[] = targets.map((target) => {
    const outcome = reported.get(target.pid);
    reported.delete(target.pid);
    return outcome
      ? {
          pid: target.pid,
          command: target.command,
          outcome: outcome.outcome,
          label: describeOutcome(outcome),
        }
      : { pid: target.pid, command: target.command, outcome: 'pending', label: pendingLabel(result) };
  });
  for (const outcome of reported.values()) {
    rows.push({
      pid: outcome.pid,
      command: outcome.command,
      outcome: outcome.outcome,
      label: describeOutcome(outcome),
    });
  }
  return rows;
}
