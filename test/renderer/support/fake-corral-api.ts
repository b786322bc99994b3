import type {
  CorralApi,
  PushChannel,
  PushContract,
  RequestChannel,
  RequestOf,
  ResponseOf,
} from '../../../shared/contract';

type Handler<C extends RequestChannel> = (payload: RequestOf<C>) => ResponseOf<C> | Promise<ResponseOf<C>>;
type Handlers = { [C in RequestChannel]?: Handler<C> };

export interface RecordedRequest {
  channel: RequestChannel;
  payload: unknown;
}

/**
 * A transport double for UI tests: answers requests from typed handlers and lets the test push
 * messages as the core would. No OS behaviour is imitated here.
 */
export class FakeCorralApi implements CorralApi {
  readonly requests: RecordedRequest[] = [];
  private readonly handlers: Handlers;
  private readonly listeners = new Map<PushChannel, Set<(payload: unknown) => void>>();

  constructor(handlers: Handlers = {}) {
    this.handlers = { ...handlers };
  }

  handle<C extends RequestChannel>(channel: C, handler: Handler<C>): void {
    (this.handlers as Record<string, unknown>)[channel] = handler;
  }

  request<C extends RequestChannel>(channel: C, payload: RequestOf<C>): Promise<ResponseOf<C>> {
    this.requests.push({ channel, payload });
    const handler = this.handlers[channel] as Handler<C> | undefined;
    if (!handler) return Promise.reject(new Error(`no handler for ${channel}`));
    try {
      return Promise.resolve(handler(payload));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  on<C extends PushChannel>(channel: C, listener: (payload: PushContract[C]) => void): () => void {
    const set = this.listeners.get(channel) ?? new Set();
    this.listeners.set(channel, set);
    const untyped = listener as (payload: unknown) => void;
    set.add(untyped);
    return () => set.delete(untyped);
  }

  push<C extends PushChannel>(channel: C, payload: PushContract[C]): void {
    this.listeners.get(channel)?.forEach((listener) => listener(payload));
  }

  listenerCount(channel: PushChannel): number {
    return this.listeners.get(channel)?.size ?? 0;
  }

  requestsFor(channel: RequestChannel): unknown[] {
    return this.requests.filter((r) => r.channel === channel).map((r) => r.payload);
  }
}

/** A promise the test settles by hand, to hold a response while it checks intermediate UI. */
export function deferred<T>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (e: Error) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
