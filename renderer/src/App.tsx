/*
 * Corral's window. Selectors for UI tests (Playwright and @testing-library):
 *
 * Navigation      role=navigation "Pages" with buttons "Overview", "Incidents", "Settings" (aria-current=page).
 * Overview        host header [data-testid=host-header]; filter radios "Flagged only" / "All agent groups" /
 *                 "Everything"; searchbox "Search by command or port" (`3000` or `:3000` matches listeners);
 *                 table "Process groups"; one tbody per agent [data-testid=agent][data-agent=<name>|none];
 *                 agent-session rows [data-testid=agent-session][data-session-id] with
 *                 [data-testid=session-agent] (agent alive|exited), [data-testid=session-age] and button
 *                 "Stop everything session <short id> left…"; groups with no known agent session under Unix
 *                 session rows [data-testid=session][data-sid];
 *                 group rows role=row [data-testid=group-row][data-group-id=<group id>] (aria-selected when
 *                 open), cells [data-testid=group-cpu] and [data-testid=group-memory], flag badges
 *                 [data-flag=orphan|leaderless|runaway|held-pipe], the tool call's description
 *                 [data-testid=tool-description], cwd [data-testid=group-cwd] and ports
 *                 [data-testid=group-ports]; button "Show timeline of group <pgid>";
 *                 button "Stop group…" in each group row; empty state [data-testid=no-groups].
 * Timeline        region "Group timeline" [data-testid=timeline][data-group-id]; range buttons in group
 *                 "Range": "Last 5 min", "1 h", "24 h", "All" (aria-pressed); zoom buttons "Zoom in",
 *                 "Zoom out", "Reset zoom" (wheel over [data-testid=time-axis] zooms, Shift+wheel pans);
 *                 lanes [data-testid=lane][data-pid] (+ data-left-group=true, data-exited=true), only lanes
 *                 near the viewport are mounted; segments [data-testid=segment][data-kind=running|orphaned|
 *                 runaway]; CPU trace [data-testid=cpu-trace] (polyline); markers [data-testid=marker]
 *                 [data-kind=started|exited|reparented|leader-exited|signal|left-group]; hovering or focusing
 *                 a lane shows role=tooltip [data-testid=lane-tooltip].
 * Stop dialog     role=dialog "Stop group <pgid>" [data-testid=stop-dialog]; radios "Whole group" /
 *                 "Orphans only" (only the latter when the group contains the agent); list "Processes to
 *                 signal" [data-testid=stop-targets] with li[data-pid]; buttons "Cancel" and "Stop"; after
 *                 confirming, [data-testid=stop-outcome][data-status=running|done|failed] and list "Outcome
 *                 per process" [data-testid=outcomes] with li[data-pid][data-outcome=pending|exited-after-term|
 *                 killed|already-gone|not-permitted|still-alive|escaped-group|skipped]; button "Close".
 * Session stop    role=dialog "Stop everything session <short id> left" [data-testid=stop-session-dialog]:
 *                 one list per group [data-testid=stop-targets], then one outcome per group
 *                 [data-testid=stop-outcome]; [data-testid=session-refused] when the core refused it all.
 * Incidents       table "Incident history" rows [data-incident-id]; tables [data-testid=burn-by-agent] and
 *                 [data-testid=burn-by-day] rows [data-key] with cells [data-cpu-seconds].
 * Settings        textboxes "Poll interval (ms)", "Runaway threshold (% of one core)", "Runaway window
 *                 (seconds)", "Grace period before SIGKILL (ms)", checkbox "Notifications", textbox "Extra
 *                 agent signatures (JSON)"; field errors [data-testid=error-<field id>]; server errors
 *                 role=alert [data-testid=server-errors]; button "Save".
 * Connection      role=alert [data-testid=connection-lost] while the serve WebSocket is down;
 *                 role=alert [data-testid=server-restarted] when serve restarted with a new token.
 */
import { useCorral } from './store/store-context';
import type { Page } from './store/ui-slice';
import { OverviewPage } from './overview/OverviewPage';
import { IncidentsPage } from './incidents/IncidentsPage';
import { SettingsPage } from './settings/SettingsPage';

const PAGES: Array<{ page: Page; label: string }> = [
  { page: 'overview', label: 'Overview' },
  { page: 'incidents', label: 'Incidents' },
  { page: 'settings', label: 'Settings' },
];

export function App() {
  const page = useCorral((s) => s.page);
  const setPage = useCorral((s) => s.setPage);
  const connection = useCorral((s) => s.connection);
  return (
    <div className="app">
      <header className="app-header">
        <h1>Corral</h1>
        <nav aria-label="Pages">
          {PAGES.map(({ page: p, label }) => (
            <button
              key={p}
              type="button"
              aria-current={page === p ? 'page' : undefined}
              onClick={() => setPage(p)}
            >
              {label}
            </button>
          ))}
        </nav>
      </header>
      {connection === 'closed' ? (
        <p role="alert" className="connection-lost" data-testid="connection-lost">
          Connection to Corral lost. Reconnecting…
        </p>
      ) : null}
      {connection === 'stale' ? (
        <p role="alert" className="connection-lost" data-testid="server-restarted">
          Corral&apos;s server restarted and this page&apos;s access token is no longer valid. Open the new
          address that <code>corral serve</code> printed (it ends in <code>?token=…</code>); this page will
          not reconnect by itself.
        </p>
      ) : null}
      <main>
        {page === 'overview' ? <OverviewPage /> : null}
        {page === 'incidents' ? <IncidentsPage /> : null}
        {page === 'settings' ? <SettingsPage /> : null}
      </main>
    </div>
  );
}
