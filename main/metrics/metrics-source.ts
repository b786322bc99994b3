import type { GroupView, Incident, MonitorEvent } from '../../shared/model';
import type { RunningService } from '../core/create-service';
import { timePolls } from './poll-timing';

/** What the metrics read from the running core, in one place, so the feeder depends on nothing else. */
export interface MetricsSource {
  /** Live agent-attributed groups (every flagged group is one), as `corral ps` shows them. */
  agentGroups(): GroupView[];
  /** Live processes the monitor tracks. */
  processCount(): number;
  openIncidents(): readonly Incident[];
  /** Errors the monitor caught so far (a running total). */
  errorCount(): number;
  /** The user's configured agent signatures: their names are valid agent labels. */
  configuredAgents(): readonly { name: string }[];
  onEvent(listener: (event: MonitorEvent) => void): () => void;
  onPoll(observe: (seconds: number) => void): () => void;
}

export function metricsSourceOf(running: RunningService): MetricsSource {
  const { monitor, service } = running;
  return {
    // With what the service adds without reading (a keep: a kept group is no leak).
    agentGroups: () => running.agentsSnapshot().groups,
    processCount: () => {
      let n = 0;
      for (const p of monitor.trackedProcesses()) if (p.exitedAt === null) n++;
      return n;
    },
    openIncidents: () => monitor.openIncidents(),
    errorCount: () => monitor.errors.count,
    configuredAgents: () => service.settings().agents,
    onEvent: (listener) => service.onEvent(listener),
    onPoll: (observe) => timePolls(monitor, observe),
  };
}
