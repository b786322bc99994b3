export function TimelineLegend() {
  return (
    <ul className="legend" aria-label="Legend">
      <li>
        <span className="swatch segment-running" /> running
      </li>
      <li>
        <span className="swatch segment-orphaned" /> orphaned
      </li>
      <li>
        <span className="swatch segment-runaway" /> runaway
      </li>
      <li>
        <svg className="swatch" width="12" height="10" aria-hidden="true">
          <rect className="segment-not-observed" width="12" height="10" />
        </svg>{' '}
        before Corral saw it
      </li>
      <li>▼ signal</li>
      <li>◆ leader exit</li>
      <li>● reparented</li>
      <li>✕ exit</li>
      <li>■ left group</li>
    </ul>
  );
}
