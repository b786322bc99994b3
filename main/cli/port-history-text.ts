import { holdingWhen, portDrift, PORT_DRIFT_SPAN, type PortHolding } from '../../shared/words/port-history';
import { shortSessionId, projectName } from '../../shared/words/provenance-text';
import { formatTable, printable } from './terminal-text';

/**
 * `corral ps --port N`'s history: who held N and its neighbours in the last day, oldest first, with
 * the drift (`:3000 → :3001 → :3002`) when the holders moved. Empty when nothing was recorded.
 */
export function renderPortHistory(port: number, history: readonly PortHolding[], now: number): string[] {
  if (history.length === 0) return [];
  const sessions = history.flatMap((h) => (h.sessionId ? [h.sessionId] : []));
  const rows = history.map((h) => {
    const who = [
      h.agent ?? 'no agent',
      h.sessionId ? `session ${printable(shortSessionId(h.sessionId, sessions))}` : null,
      h.project ? printable(projectName(h.project) ?? h.project) : null,
    ].filter((w) => w !== null);
    return [`  :${h.port}`, printable(h.command), who.join(' · '), holdingWhen(h, now), h.groupId];
  });
  const lines = [
    `Earlier on :${port} and the ${PORT_DRIFT_SPAN} ports above it (last 24 h, from incidents):`,
  ];
  lines.push(...formatTable(rows).split('\n'));
  const drift = portDrift(history);
  if (drift.length > 1) lines.push(`Drift: ${drift.map((p) => `:${p}`).join(' → ')}`);
  return lines;
}
