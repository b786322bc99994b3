import { visibleText } from '../../../shared/words/visible-text';
import { spawnStormPeak } from '../../../shared/words/spawn-storm-words';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { commandThatMatters } from '../../../shared/words/command-summary';
import type { IncidentFilter } from '../../../shared/contract';
import type { Incident } from '../../../shared/model';
import { formatBytes, formatCpuSeconds, formatDateTime, formatDuration } from '../shared-ui/format';
import { useCorral, useCorralApi } from '../store/store-context';
import { errorMessage } from '../sync/errors';
import { cpuBurnByAgent, cpuBurnByDay, type BurnRow } from './cpu-burn';
import { Age } from '../shared-ui/Age';
import { FlagBadges } from '../shared-ui/FlagBadges';
import { IncidentFilters } from './IncidentFilters';
import { PAGE_SIZE } from './page-size';
import { incidentEndWords } from '../../../shared/words/end-words';

export function IncidentsPage() {
  const api = useCorralApi();
  const [incidents, setIncidents] = useState<Incident[] | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState<IncidentFilter>({});
  const [offset, setOffset] = useState(0);

  const load = useCallback(() => {
    api.request('incidents:list', { ...filter, limit: PAGE_SIZE + 1, offset }).then(
      (list) => {
        setMore(list.length > PAGE_SIZE);
        setIncidents(list.slice(0, PAGE_SIZE));
        setError(null);
      },
      (e: unknown) => setError(errorMessage(e)),
    );
  }, [api, filter, offset]);

  useEffect(() => {
    load();
    // Incidents open and close as the monitor sees them: refresh on those events.
    return api.on('event', (event) => {
      if (event.type === 'incident-opened' || event.type === 'incident-closed') load();
    });
  }, [api, load]);

  const byAgent = useMemo(() => cpuBurnByAgent(incidents ?? []), [incidents]);
  const byDay = useMemo(() => cpuBurnByDay(incidents ?? []), [incidents]);

  return (
    <section className="incidents" aria-labelledby="incidents-title">
      <header className="page-header">
        <h2 id="incidents-title">Incidents</h2>
        <button type="button" onClick={load}>
          Refresh
        </button>
      </header>
      <IncidentFilters
        onChange={(next) => {
          setFilter(next);
          setOffset(0);
        }}
      />
      {error ? (
        <p role="alert" className="error">
          Could not load incidents: {error}
        </p>
      ) : null}
      {incidents === null ? (
        error ? null : (
          <p className="empty">Loading…</p>
        )
      ) : (
        <>
          <div className="burn-tables">
            <BurnTable title="CPU burned per agent" keyLabel="Agent" rows={byAgent} testId="burn-by-agent" />
            <BurnTable title="CPU burned per day" keyLabel="Day" rows={byDay} testId="burn-by-day" />
          </div>
          <IncidentTable incidents={incidents} filtered={Object.keys(filter).length > 0 || offset > 0} />
          <Paging offset={offset} shown={incidents.length} more={more} onOffset={setOffset} />
        </>
      )}
    </section>
  );
}

function BurnTable({
  title,
  keyLabel,
  rows,
  testId,
}: {
  title: string;
  keyLabel: string;
  rows: BurnRow[];
  testId: string;
}) {
  return (
    <table className="burn" aria-label={title} data-testid={testId}>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">{keyLabel}</th>
          <th scope="col">CPU</th>
          <th scope="col">Incidents</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} data-key={row.key}>
            <td>{row.key}</td>
            <td className="num" data-cpu-seconds={row.cpuSeconds}>
              {formatCpuSeconds(row.cpuSeconds)}
            </td>
            <td className="num">{row.incidents}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Paging({
  offset,
  shown,
  more,
  onOffset,
}: {
  offset: number;
  shown: number;
  more: boolean;
  onOffset: (offset: number) => void;
}) {
  if (offset === 0 && !more) return null;
  return (
    <nav className="paging" aria-label="Incident pages">
      <button type="button" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - PAGE_SIZE))}>
        Newer
      </button>
      <span data-testid="incident-range">{shown === 0 ? 'none' : `${offset + 1}–${offset + shown}`}</span>
      <button type="button" disabled={!more} onClick={() => onOffset(offset + PAGE_SIZE)}>
        Older
      </button>
    </nav>
  );
}

function IncidentTable({ incidents, filtered }: { incidents: Incident[]; filtered: boolean }) {
  const setPage = useCorral((s) => s.setPage);
  const selectGroup = useCorral((s) => s.selectGroup);
  if (incidents.length === 0)
    return <p className="empty">{filtered ? 'No incidents match.' : 'No incidents recorded.'}</p>;
  const openTimeline = (groupId: string) => {
    selectGroup(groupId);
    setPage('overview');
  };
  return (
    <table className="incident-table" aria-label="Incident history">
      <thead>
        <tr>
          <th scope="col">Opened</th>
          <th scope="col">Flags</th>
          <th scope="col">Agent</th>
          <th scope="col">PGID</th>
          <th scope="col">Processes</th>
          <th scope="col">Duration</th>
          <th scope="col">CPU</th>
          <th scope="col">Peak memory</th>
          <th scope="col">End</th>
        </tr>
      </thead>
      <tbody>
        {incidents.map((incident) => (
          <tr key={incident.id} data-incident-id={incident.id}>
            <td
              data-label="Opened"
              title={
                incident.openedAtSource === 'noticed'
                  ? 'When Corral first noticed it: the leak began earlier'
                  : 'When the leak began, as Corral saw it'
              }
            >
              {formatDateTime(incident.openedAt)}
              {incident.openedAtSource === 'noticed' ? ' (or earlier)' : ''}
            </td>
            <td data-label="Flags">
              {/* One incident per leaked group: every flag it had, the first one first, in the table's words. */}
              <FlagBadges flags={incident.flags.length > 0 ? incident.flags : [incident.kind]} />
              {incident.spawnStorm ? (
                <span
                  className="spawn-storm-words"
                  data-testid="incident-spawn-storm"
                  title={`spawn-storm, reason ${incident.spawnStorm.reason}: ${incident.spawnStorm.births} births counted, ${incident.spawnStorm.unseenBirths} of them exited before Corral could read them`}
                >
                  {visibleText(spawnStormPeak(incident.spawnStorm))}
                </span>
              ) : null}
            </td>
            <td data-label="Agent">{incident.agent ?? '—'}</td>
            <td data-label="PGID" className="num">
              <button
                type="button"
                className="link"
                aria-label={`Show timeline of group ${incident.pgid} (incident ${incident.id})`}
                onClick={() => openTimeline(incident.groupId)}
              >
                {incident.pgid}
              </button>
            </td>
            <td
              data-label="Processes"
              className="command"
              title={incident.processes.map((p) => `${p.pid} ${visibleText(p.command)}`).join('\n')}
            >
              <span className="command-text">
                {incident.processes.length === 1
                  ? visibleText(commandThatMatters(incident.processes[0]!.command))
                  : `${incident.processes.length} processes`}
              </span>
            </td>
            <td data-label="Duration" className="num">
              {/* As `corral history` has it: an open incident's duration so far. */}
              {incident.closedAt === null ? (
                <Age since={incident.openedAt} />
              ) : (
                formatDuration(incident.closedAt - incident.openedAt)
              )}
            </td>
            <td data-label="CPU" className="num">
              {formatCpuSeconds(incident.cpuSeconds)}
            </td>
            <td data-label="Peak memory" className="num">
              {formatBytes(incident.peakRssBytes)}
            </td>
            <td data-label="End">{incidentEndWords(incident.end)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
