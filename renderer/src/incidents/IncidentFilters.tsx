import { useState, type FormEvent } from 'react';
import type { IncidentFilter } from '../../../shared/contract';
import { flagWords } from '../../../shared/words/flag-words';
import { INCIDENT_FLAGS, isIncidentFlag, parseHistoryTime } from '../../../shared/incident-filter';
import { AGENT_NAMES } from '../../../shared/model';

/** The form's fields as typed; the times in the CLI's words (`2h`, `2026-12-03T14:05`). */
interface Fields {
  agent: string;
  sessionId: string;
  project: string;
  flag: string;
  since: string;
  until: string;
}

const EMPTY: Fields = { agent: '', sessionId: '', project: '', flag: '', since: '', until: '' };
const TIME_HELP = '30m, 2h, 7d ago, or a date: 2026-12-03, 2026-12-03T14:05';

/** The filter the fields ask for, or which time field cannot be read. */
function filterOf(fields: Fields, now: number): { filter: IncidentFilter } | { bad: 'since' | 'until' } {
  const filter: IncidentFilter = {};
  const text = (value: string) => (value.trim() === '' ? undefined : value.trim());
  filter.agent = text(fields.agent);
  filter.sessionId = text(fields.sessionId);
  filter.project = text(fields.project);
  if (isIncidentFlag(fields.flag)) filter.flag = fields.flag;
  for (const key of ['since', 'until'] as const) {
    const typed = text(fields[key]);
    if (typed === undefined) continue;
    const ms = parseHistoryTime(typed, now);
    if (ms === null) return { bad: key };
    filter[key === 'since' ? 'sinceMs' : 'untilMs'] = ms;
  }
  for (const key of Object.keys(filter) as (keyof IncidentFilter)[])
    if (filter[key] === undefined) delete filter[key];
  return { filter };
}

/**
 * The history's filters, the same as `corral history`'s flags: a flag applies when chosen, text fields
 * when the form is sent (Enter or Filter).
 */
export function IncidentFilters({ onChange }: { onChange: (filter: IncidentFilter) => void }) {
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [bad, setBad] = useState<'since' | 'until' | null>(null);

  const apply = (next: Fields) => {
    const read = filterOf(next, Date.now());
    if ('bad' in read) {
      setBad(read.bad);
      return;
    }
    setBad(null);
    onChange(read.filter);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply(fields);
  };
  const set = (key: keyof Fields) => (value: string) => setFields((f) => ({ ...f, [key]: value }));
  const text = (key: keyof Fields, label: string, extra: { placeholder?: string; list?: string } = {}) => (
    <div className="field">
      <label htmlFor={`incident-filter-${key}`}>{label}</label>
      <input
        id={`incident-filter-${key}`}
        type="text"
        value={fields[key]}
        aria-invalid={bad === key ? true : undefined}
        aria-describedby={bad === key ? 'incident-filter-error' : undefined}
        onChange={(event) => set(key)(event.target.value)}
        {...extra}
      />
    </div>
  );

  return (
    <form className="incident-filters" aria-label="Filter incidents" onSubmit={submit}>
      {text('agent', 'Agent', { list: 'incident-filter-agents' })}
      <datalist id="incident-filter-agents">
        {AGENT_NAMES.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      {text('sessionId', 'Session', { placeholder: 'id or its start' })}
      {text('project', 'Project')}
      <div className="field">
        <label htmlFor="incident-filter-flag">Flag</label>
        <select
          id="incident-filter-flag"
          value={fields.flag}
          onChange={(event) => {
            const next = { ...fields, flag: event.target.value };
            setFields(next);
            apply(next);
          }}
        >
          <option value="">any</option>
          {INCIDENT_FLAGS.map((flag) => (
            <option key={flag} value={flag}>
              {flagWords(flag)}
            </option>
          ))}
        </select>
      </div>
      {text('since', 'Since', { placeholder: '2h, 7d, 2026-12-03' })}
      {text('until', 'Until', { placeholder: '30m, 2026-12-03T14:05' })}
      <div className="form-actions">
        <button type="submit">Filter</button>
        <button
          type="button"
          onClick={() => {
            setFields(EMPTY);
            apply(EMPTY);
          }}
        >
          Clear
        </button>
      </div>
      {bad ? (
        <p id="incident-filter-error" role="alert" className="field-error">
          {bad === 'since' ? 'Since' : 'Until'}: {TIME_HELP}.
        </p>
      ) : null}
    </form>
  );
}
