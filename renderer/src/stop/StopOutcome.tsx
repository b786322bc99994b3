import { visibleText } from '../../../shared/words/visible-text';
import { commandThatMatters } from '../../../shared/words/command-summary';
import type { ProcessView } from '../../../shared/model';
import type { TeardownState } from '../store/teardown-slice';
import { outcomeRows } from './outcome-rows';
import { describeSignal } from '../../../shared/words/stop-wording';

interface StopOutcomeProps {
  targets: readonly ProcessView[];
  teardown: TeardownState | null;
}

export function StopOutcome({ targets, teardown }: StopOutcomeProps) {
  const result = teardown?.result ?? null;
  const rows = outcomeRows(targets, result);
  const status = teardown?.status ?? 'running';
  return (
    <div className="stop-outcome" data-testid="stop-outcome" data-status={status}>
      <p role="status">
        {status === 'running'
          ? 'Stopping…'
          : status === 'failed'
            ? 'The stop request failed.'
            : result?.refused
              ? 'Corral refused to stop this group.'
              : result?.clean
                ? 'Every targeted process is gone.'
                : 'Some processes are still alive.'}
      </p>
      {teardown?.error ? (
        <p role="alert" className="error">
          {teardown.error}
        </p>
      ) : null}
      {result?.refused ? (
        <p role="alert" className="error" data-testid="stop-refused">
          Refused: {result.refused}
        </p>
      ) : null}
      <ul className="outcome-list" aria-label="Outcome per process" data-testid="outcomes">
        {rows.map((row) => (
          <li
            key={row.pid}
            data-pid={row.pid}
            data-outcome={row.outcome}
            className={`outcome-${row.outcome}`}
          >
            <span className="pid">{row.pid}</span>{' '}
            <code title={visibleText(row.command)}>{visibleText(commandThatMatters(row.command))}</code>
            <span className="outcome-label">{row.label}</span>
          </li>
        ))}
      </ul>
      {result && result.signals.length > 0 ? (
        <details className="signals">
          <summary>Signals sent ({result.signals.length})</summary>
          <ul>
            {result.signals.map((s, i) => (
              <li key={i} data-signal={s.signal}>
                {describeSignal(s)}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
