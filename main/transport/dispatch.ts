import type { ResponseOf, RequestChannel } from '../../shared/contract';
import type { TeardownResult } from '../../shared/model';
import type { CorralService } from '../core/service';
import { answerRequest } from '../core/service-requests';
import { validateRequest } from './validate-request';

export type DispatchResult = { ok: true; payload: ResponseOf<RequestChannel> } | { ok: false; error: string };

/**
 * Validates a request from either transport and runs it against the service. Never throws: every
 * failure, from a bad payload to a service error, comes back as `{ ok: false, error }`. While a
 * transport listens to the service's pushes, `snapshot:get` answers with the snapshot their deltas chain
 * on (CorralService.onSnapshotPush), not with a newer one the transport did not send.
 */
export async function dispatch(
  service: CorralService,
  channel: unknown,
  payload: unknown,
  onProgress?: (partial: TeardownResult) => void,
): Promise<DispatchResult> {
  const request = validateRequest(channel, payload);
  if (!request.ok) return request;
  try {
    return { ok: true, payload: await answerRequest(service, request.channel, request.payload, onProgress) };
  } catch (err) {
    return { ok: false, error: `${request.channel}: ${err instanceof Error ? err.message : String(err)}` };
  }
}
