import { useCorral } from '../store/store-context';
import { formatBytes } from '../shared-ui/format';

export function HostHeader() {
  const host = useCorral((s) => s.snapshot?.host);
  if (!host) return null;
  const usedMem = host.totalMemBytes - host.freeMemBytes;
  return (
    <header className="host-header" data-testid="host-header">
      <strong>{host.hostname}</strong>
      <span>{host.os ?? host.platform}</span>
      <span>{host.cpuCount} CPUs</span>
      {host.cpuLoadPercent !== undefined && <span>CPU {host.cpuLoadPercent.toFixed(0)}%</span>}
      <span title="1, 5 and 15 minute load averages">
        load {host.loadAverage.map((l) => l.toFixed(2)).join(' ')}
      </span>
      {host.totalMemBytes > 0 && (
        <span>
          memory {formatBytes(usedMem)} / {formatBytes(host.totalMemBytes)}
        </span>
      )}
    </header>
  );
}
