import type { ResponseOf, RequestChannel } from '../../shared/contract';
import type { TeardownResult } from '../../shared/model';
import type { CorralService } from '../core/service';
import { validateRequest, type ValidRequest } from './validate-request';

export type DispatchResult = { ok: true; payload: ResponseOf<RequestChannel> } | { ok: false; error: string };

async function call(
  service: CorralService,
  request: ValidRequest,
  onProgress?: (partial: TeardownResult) => void,
): Promise<ResponseOf<RequestChannel>> {
  switch (request.channel) {
    case 'snapshot:get':
      return service.snapshot();
    case 'timeline:get':
      return service.timeline(request.payload.groupId, request.payload.sinceMs);
    case 'group:stop':
      // The service resolves the id against what it reported; an unknown id is its error to raise.
      return service.stopGroup(request.payload, onProgress);
    case 'incidents:list':
      return service.incidents(request.payload?.limit);
    case 'settings:get':
      return service.settings();
    case 'settings:set':
      return service.updateSettings(request.payload);
  }
}

/**
 * Validates a request from either transport and runs it against the service. Never throws: every
 * failure, from a bad payload to a service error, comes back as `{ ok: false, error }`.
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
    return { ok: true, payload: await call(service, request, onProgress) };
  } catch (err) {
    return { ok: false, error: `${request.channel}: ${err instanceof Error ? err.message : String(err)}` };
  }
}
