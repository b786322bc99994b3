import type { LaneMarker } from '../../../shared/model';

/** One event on a lane, drawn so each kind is recognisable without colour. */
export function MarkerGlyph({ marker, x, height }: { marker: LaneMarker; x: number; height: number }) {
  const mid = height / 2;
  return (
    <g className={`marker marker-${marker.kind}`} data-testid="marker" data-kind={marker.kind}>
      <title>{marker.by ? `${marker.label}, by ${marker.by}` : marker.label}</title>
      {glyph(marker.kind, x, mid, height)}
    </g>
  );
}

function glyph(kind: LaneMarker['kind'], x: number, mid: number, height: number) {
  switch (kind) {
    case 'signal':
      return <polygon points={`${x - 4},1 ${x + 4},1 ${x},8`} />;
    case 'exited':
      return (
        <>
          <line x1={x} y1={2} x2={x} y2={height - 2} />
          <path d={`M${x - 3},${mid - 3} L${x + 3},${mid + 3} M${x + 3},${mid - 3} L${x - 3},${mid + 3}`} />
        </>
      );
    case 'leader-exited':
      return <polygon points={`${x},${mid - 5} ${x + 5},${mid} ${x},${mid + 5} ${x - 5},${mid}`} />;
    case 'reparented':
      return <circle cx={x} cy={mid} r={4} />;
    case 'left-group':
      return <rect x={x - 3.5} y={mid - 3.5} width={7} height={7} />;
    case 'started':
      return <line x1={x} y1={4} x2={x} y2={height - 4} />;
  }
}
