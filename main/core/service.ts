import type { StopGroupRequest } from '../../shared/contract';
import type {
  GroupTimeline,
  Incident,
  MonitorEvent,
  Settings,
  Snapshot,
  TeardownResult,
} from '../../shared/model';

export type SettingsUpdate = { ok: true; settings: Settings } | { ok: false; errors: string[] };

/**
 * What every front end (Electron IPC, the serve WebSocket, the CLI) asks of the running core.
 * Transports adapt this to shared/contract.ts; none of them reaches past it.
 */
export interface CorralService {
  snapshot(): Snapshot;
  timeline(groupId: string, sinceMs?: number): GroupTimeline | null;
  /** Stops a group the service itself reported, by its id; never by a raw PID or PGID. */
  stopGroup(
    request: StopGroupRequest,
    onProgress?: (partial: TeardownResult) => void,
  ): Promise<TeardownResult>;
  incidents(limit?: number): Incident[];
  settings(): Settings;
  updateSettings(patch: Partial<Settings>): SettingsUpdate;
  onSnapshot(listener: (snapshot: Snapshot) => void): () => void;
  onEvent(listener: (event: MonitorEvent) => void): () => void;
}
