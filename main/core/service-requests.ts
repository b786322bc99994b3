import type { RequestChannel, RequestOf, ResponseOf } from '../../shared/contract';
import type { TeardownResult } from '../../shared/model';
import type { CorralService } from './service';

type Answer<C extends RequestChannel> = (
  service: CorralService,
  payload: RequestOf<C>,
  onProgress?: (partial: TeardownResult) => void,
) => ResponseOf<C> | Promise<ResponseOf<C>>;

/**
 * The service's requests, declared once: which CorralService method answers each contract channel,
 * and with which arguments. Transport dispatch and the worker thread both answer through this table,
 * so a new request is a contract entry, a service method and one line here.
 */
export const SERVICE_REQUESTS: { readonly [C in RequestChannel]: Answer<C> } = {
  'snapshot:get': (service) => service.snapshot(),
  'timeline:get': (service, p) => service.timeline(p.groupId, p.sinceMs),
  // The service resolves the id against what it reported; an unknown id is its error to raise.
  'group:stop': (service, p, onProgress) => service.stopGroup(p, onProgress),
  'session:stop': (service, p, onProgress) => service.stopSession(p, onProgress),
  'group:keep': (service, p) => service.keepGroup(p),
  'group:unkeep': (service, p) => service.unkeepGroup(p.groupId),
  'incidents:list': (service, p) => service.incidents(p?.limit),
  'settings:get': (service) => service.settings(),
  'settings:set': (service, p) => service.updateSettings(p),
  'config:problems': (service) => service.configProblems(),
  'policies:journal': (service, p) => service.policyJournal(p ?? {}),
  'hooks:status': (service) => service.hooksStatus(),
  'hooks:install': (service, p) => service.installHooks(p),
};

/** Answers one request of a channel named at run time (its payload already validated). */
export function answerRequest<C extends RequestChannel>(
  service: CorralService,
  channel: C,
  payload: RequestOf<C>,
  onProgress?: (partial: TeardownResult) => void,
): Promise<ResponseOf<C>> {
  const answer = SERVICE_REQUESTS[channel] as Answer<C>;
  return Promise.resolve(answer(service, payload, onProgress));
}
