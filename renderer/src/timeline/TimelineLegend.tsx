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
      <li>▼ signal</li>
      <li>◆ leader exit</li>
      <li>● reparented</li>
      <li>✕ exit</li>
      <li>■ left group</li>
    </ul>
  );
}
