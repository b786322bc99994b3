import { visibleText } from '../../../shared/words/visible-text';
import { commandThatMatters } from '../../../shared/words/command-summary';
import type { ProcessView } from '../../../shared/model';

/** The processes a stop will signal, each by pid and the command that matters (full line on hover). */
export function TargetList({ label, targets }: { label: string; targets: readonly ProcessView[] }) {
  return (
    <ul className="target-list" aria-label={label} data-testid="stop-targets">
      {targets.map((p) => (
        <li key={p.pid} data-pid={p.pid}>
          <span className="pid">{p.pid}</span>{' '}
          <code title={visibleText(p.command)}>{visibleText(commandThatMatters(p.command))}</code>
        </li>
      ))}
    </ul>
  );
}
