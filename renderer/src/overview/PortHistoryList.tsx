import type { GroupView } from '../../../shared/model';
import { holdingWhen, portDrift, portHistoryUpTo } from '../../../shared/words/port-history';
import { projectName, shortSessionId } from '../../../shared/words/provenance-text';
import { visibleText } from '../../../shared/words/visible-text';
import { useCorral } from '../store/store-context';
import { useRecentIncidents } from './recent-incidents';

const SHOWN = 3;
/**
 * Under a group's ports: who held them (and the ports just below, where a dev server was before it
 * drifted up) in the last day, newest first, from the incidents; and the drift, `:3000 → :3001 → :3002`.
 */
export function PortHistoryList({ group, ports }: { group: GroupView; ports: readonly number[] }) {
  const incidents = useRecentIncidents();
  const now = useCorral((s) => s.now);
  if (incidents.length === 0 || ports.length === 0) return null;
  const top = Math.max(...ports);
  const history = portHistoryUpTo(incidents, top, now).filter((h) => h.groupId !== group.id);
  if (history.length === 0) return null;
  const drift = [...portDrift(history), ...ports.filter((p) => !history.some((h) => h.port === p))];
  const shown = history.slice(-SHOWN).reverse();
  const sessions = shown.flatMap((h) => (h.sessionId ? [h.sessionId] : []));
  return (
    <span className="port-history" data-testid="port-history">
      {drift.length > 1 ? (
        <span className="port-drift" data-testid="port-drift" title="Ports held in the last day, in order">
          drift {drift.map((p) => `:${p}`).join(' → ')}
        </span>
      ) : null}
      <ul aria-label={`Earlier on ${ports.map((p) => `:${p}`).join(', ')}`}>
        {shown.map((h) => (
          <li
            key={`${h.groupId}:${h.port}`}
            data-testid="port-history-row"
            title={`${visibleText(h.command)} (group ${h.groupId})`}
          >
            <span className="port">:{h.port}</span>
            {h.sessionId ? ` session ${visibleText(shortSessionId(h.sessionId, sessions))}` : ''}
            {h.project ? ` · ${visibleText(projectName(h.project) ?? h.project)}` : ''} ·{' '}
            {holdingWhen(h, now)} · {visibleText(h.command)}
          </li>
        ))}
      </ul>
    </span>
  );
}
