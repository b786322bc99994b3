import type { RequestChannel, RequestOf } from '../../../shared/contract';
import type { MonitorEvent, Settings, Snapshot, TeardownResult } from '../../../shared/model';

/** How much of the table the worker pushes each tick: agents' groups, or every group. */
export type SnapshotDetail = 'agents' | 'all';

/** One contract request carried to the worker, answered there through SERVICE_REQUESTS. */
export type WorkerRequest = {
  [C in RequestChannel]: { kind: 'call'; id: number; channel: C; payload: RequestOf<C> };
}[RequestChannel];

export type WorkerCall = WorkerRequest | { kind: 'detail'; detail: SnapshotDetail } | { kind: 'stop' };

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
