import type { StopGroupRequest } from '../../../shared/contract';
import type { MonitorEvent, Settings, Snapshot, TeardownResult } from '../../../shared/model';

/** How much of the table the worker pushes each tick: agents' groups, or every group. */
export type SnapshotDetail = 'agents' | 'all';

export type WorkerCall =
  | { kind: 'call'; id: number; method: 'timeline'; args: [groupId: string, sinceMs?: number] }
  | { kind: 'call'; id: number; method: 'stopGroup'; args: [request: StopGroupRequest] }
  | { kind: 'call'; id: number; method: 'incidents'; args: [limit?: number] }
  | { kind: 'call'; id: number; method: 'updateSettings'; args: [patch: Partial<Settings>] }
  | { kind: 'detail'; detail: SnapshotDetail }
  /** The machine slept (powerMonitor suspend/resume): start CPU readings afresh. */
  | { kind: 'rebaseline' }
  | { kind: 'stop' };

export type WorkerMessage =
  | { kind: 'ready'; snapshot: Snapshot; settings: Settings }
  | { kind: 'snapshot'; snapshot: Snapshot }
  | { kind: 'event'; event: MonitorEvent }
  | { kind: 'settings'; settings: Settings }
  | { kind: 'progress'; id: number; partial: TeardownResult }
  | { kind: 'result'; id: number; ok: true; value: unknown }
  | { kind: 'result'; id: number; ok: false; error: string }
  | { kind: 'stopped' };

export interface WorkerData {
  dataDir?: string;
}
