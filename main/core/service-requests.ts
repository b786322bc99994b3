import type { RequestChannel, RequestOf, ResponseOf } from '../../shared/contract';
import type { TeardownResult } from '../../shared/model';
import type { CorralService } from './service';

type OnProgress = (partial: TeardownResult) => void;
type RequestMethod = Exclude<keyof CorralService, 'onSnapshot' | 'onSnapshotPush' | 'onEvent'>;

/**
 * Which CorralService method answers a channel, and with which arguments: the payload's `fields` in
 * order, or the payload whole (`'payload'`); then the progress callback, where `progress` says so.
 */
type Route<C extends RequestChannel> = {
  method: RequestMethod;
  args: 'payload' | readonly (keyof RequestOf<C>)[];
  progress?: true;
};
/** A route of any channel, as the code that follows one at run time sees it. */
type AnyRoute = { method: RequestMethod; args: 'payload' | readonly PropertyKey[]; progress?: true };

/**
 * The service's requests, declared once. Transport dispatch and the worker thread answer through this
 * table (answerRequest), and the worker's client side is made from it (serviceClient), so a new request
 * is a contract entry, a service method and one line here.
 */
export const SERVICE_REQUESTS = {
  'snapshot:get': { method: 'snapshot', args: [] },
  'timeline:get': { method: 'timeline', args: ['groupId', 'sinceMs'] },
  // The service resolves the id against what it reported; an unknown id is its error to raise.
  'group:stop': { method: 'stopGroup', args: 'payload', progress: true },
  'session:stop': { method: 'stopSession', args: 'payload', progress: true },
  'group:keep': { method: 'keepGroup', args: 'payload' },
  'group:unkeep': { method: 'unkeepGroup', args: ['groupId'] },
  'incidents:list': { method: 'incidents', args: 'payload' },
  'settings:get': { method: 'settings', args: [] },
  'settings:set': { method: 'updateSettings', args: 'payload' },
  'config:problems': { method: 'configProblems', args: [] },
  'policies:journal': { method: 'policyJournal', args: 'payload' },
  'hooks:status': { method: 'hooksStatus', args: [] },
  'hooks:install': { method: 'installHooks', args: 'payload' },
  'hooks:endpoint': { method: 'hookEndpoint', args: [] },
} as const satisfies { readonly [C in RequestChannel]: Route<C> };

type Routes = typeof SERVICE_REQUESTS;
type MethodOf<C extends RequestChannel> = Routes[C]['method'];
type ArgsOf<C extends RequestChannel, A = Routes[C]['args']> = A extends 'payload'
  ? Routes[C] extends { progress: true }
    ? [RequestOf<C>, OnProgress?]
    : [RequestOf<C>]
  : { -readonly [K in keyof A]: RequestOf<C>[A[K] & keyof RequestOf<C>] };

// Compile-time check: each route calls its method with arguments it takes, and the method answers
// what the contract promises (and the contract's answer is what the method's callers expect).
type Answered<C extends RequestChannel> = Awaited<ReturnType<CorralService[MethodOf<C>]>>;
type Misrouted = {
  [C in RequestChannel]: ArgsOf<C> extends Parameters<CorralService[MethodOf<C>]>
    ? [Answered<C>, ResponseOf<C>] extends [ResponseOf<C>, Answered<C>]
      ? never
      : C
    : C;
}[RequestChannel];
const _everyRouteFits: Misrouted extends never ? true : Misrouted = true;
void _everyRouteFits;

/** A method's arguments for a route, from a request's payload and progress callback. */
function argumentsFor(route: AnyRoute, payload: unknown, onProgress?: OnProgress): unknown[] {
  const fields = payload as Record<PropertyKey, unknown> | undefined;
  const args = route.args === 'payload' ? [payload] : route.args.map((field) => fields?.[field]);
  return route.progress ? [...args, onProgress] : args;
}

/** A request's payload and progress callback, from a method's arguments for a route. */
function requestFor(route: AnyRoute, args: unknown[]): { payload: unknown; onProgress?: OnProgress } {
  const { args: shape } = route;
  const payload =
    shape === 'payload'
      ? args[0]
      : shape.length === 0
        ? undefined
        : Object.fromEntries(shape.map((field, i) => [field, args[i]]));
  const taken = shape === 'payload' ? 1 : shape.length;
  return { payload, onProgress: route.progress ? (args[taken] as OnProgress | undefined) : undefined };
}

/** Answers one request of a channel named at run time (its payload already validated). */
export function answerRequest<C extends RequestChannel>(
  service: CorralService,
  channel: C,
  payload: RequestOf<C>,
  onProgress?: OnProgress,
): Promise<ResponseOf<C>> {
  const route: AnyRoute = SERVICE_REQUESTS[channel];
  const method = service[route.method] as (...args: unknown[]) => ResponseOf<C> | Promise<ResponseOf<C>>;
  return Promise.resolve(method.apply(service, argumentsFor(route, payload, onProgress)));
}

/** Sends one request; what a client of the service (serviceClient) is made over. */
export type SendRequest = <C extends RequestChannel>(
  channel: C,
  payload: RequestOf<C>,
  onProgress?: OnProgress,
) => Promise<ResponseOf<C>>;

/** Each request method of CorralService as a client has it: the same arguments, always a promise. */
export type ServiceClient = {
  [C in RequestChannel as MethodOf<C>]: (
    ...args: Parameters<CorralService[MethodOf<C>]>
  ) => Promise<ResponseOf<C>>;
};

/** The service's request methods, each sending its request through `send` (to a worker thread). */
export function serviceClient(send: SendRequest): ServiceClient {
  const client: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const [channel, route] of Object.entries(SERVICE_REQUESTS) as [RequestChannel, AnyRoute][]) {
    client[route.method] = (...args) => {
      const { payload, onProgress } = requestFor(route, args);
      return send(channel, payload as RequestOf<typeof channel>, onProgress);
    };
  }
  return client as ServiceClient;
}
