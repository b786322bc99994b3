import { useCorral } from '../store/store-context';
import type { GroupFilter } from '../store/ui-slice';

const FILTERS: Array<{ value: GroupFilter; label: string }> = [
  { value: 'flagged', label: 'Flagged only' },
  { value: 'agents', label: 'All agent groups' },
  { value: 'all', label: 'Everything' },
];

export function OverviewToolbar() {
  const filter = useCorral((s) => s.filter);
  const setFilter = useCorral((s) => s.setFilter);
  const search = useCorral((s) => s.search);
  const setSearch = useCorral((s) => s.setSearch);
  return (
    <div className="toolbar">
      <fieldset className="segmented">
        <legend className="visually-hidden">Show</legend>
        {FILTERS.map(({ value, label }) => (
          <label key={value} className={filter === value ? 'active' : undefined}>
            <input
              type="radio"
              name="group-filter"
              value={value}
              checked={filter === value}
              onChange={() => setFilter(value)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <input
        type="search"
        className="search"
        aria-label="Search by command"
        placeholder="Search by command…"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
    </div>
  );
}
