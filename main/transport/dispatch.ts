import type { ResponseOf, RequestChannel } from '../../shared/contract';
import type { Snapshot, TeardownResult } from '../../shared/model';
import type { CorralService } from '../core/service';
import { answerRequest } from '../core/service-requests';
import { validateRequest } from './validate-request';

export type DispatchResult = { ok: true; payload: ResponseOf<RequestChannel> } | { ok: false; error: string };

/**
 * Validates a request from either transport and runs it against the service. Never throws: every
 * failure, from a bad payload to a service error, comes back as `{ ok: false, error }`.
 * `chainedSnapshot` is the snapshot the transport's deltas chain on (SnapshotDeltas.latest): while
 * there is one, `snapshot:get` answers with it, not with a newer one the transport did not send.
 */
export async function dispatch(
  service: CorralService,
  channel: unknown,
  payload: unknown,
  onProgress?: (partial: TeardownResult) => void,
  chainedSnapshot?: () => Snapshot | null,
): Promise<DispatchResult> {
  const request = validateRequest(channel, payload);
  if (!request.ok) return request;
  const chained = request.channel === 'snapshot:get' ? chainedSnapshot?.() : null;
  if (chained) return { ok: true, payload: chained };
  try {
    return { ok: true, payload: await answerRequest(service, request.channel, request.payload, onProgress) };
  } catch (err) {
    return { ok: false, error: `${request.channel}: ${err instanceof Error ? err.message : String(err)}` };
  }
}
