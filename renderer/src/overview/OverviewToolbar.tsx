import { useCorral } from '../store/store-context';
import type { GroupFilter } from '../store/ui-slice';

const FILTERS: Array<{ value: GroupFilter; label: string; short: string }> = [
  { value: 'flagged', label: 'Flagged only', short: 'Flagged' },
  { value: 'agents', label: 'All agent groups', short: 'Agents' },
  { value: 'all', label: 'Everything', short: 'All' },
];

export function OverviewToolbar({ compact }: { compact: boolean }) {
  const filter = useCorral((s) => s.filter);
  const setFilter = useCorral((s) => s.setFilter);
  const search = useCorral((s) => s.search);
  const setSearch = useCorral((s) => s.setSearch);
  return (
    <div className="toolbar">
      <fieldset className="segmented">
        <legend className="visually-hidden">Show</legend>
        {FILTERS.map(({ value, label, short }) => (
          <label key={value} className={filter === value ? 'active' : undefined} title={label}>
            <input
              type="radio"
              name="group-filter"
              aria-label={label}
              value={value}
              checked={filter === value}
              onChange={() => setFilter(value)}
            />
            {compact ? short : label}
          </label>
        ))}
      </fieldset>
      <input
        type="search"
        className="search"
        aria-label="Search by command or port"
        placeholder={compact ? 'Command or :port…' : 'Search by command or :port…'}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
    </div>
  );
}
