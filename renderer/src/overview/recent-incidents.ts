import { useSyncExternalStore } from 'react';
import type { CorralApi } from '../../../shared/contract';
import type { Incident } from '../../../shared/model';
import { useCorralApi } from '../store/store-context';

const LIMIT = 1000;
/** Ports are noted on open incidents without an event: the list is fetched again this often. */
const REFRESH_MS = 15_000;
const NONE: readonly Incident[] = [];

/**
 * The recent incidents, fetched once for every component that shows a port's history and refreshed
 * while any of them is mounted (on incident events, and every REFRESH_MS).
 */
class RecentIncidents {
  incidents: readonly Incident[] = NONE;
  private readonly listeners = new Set<() => void>();
  private halt: (() => void) | null = null;

  constructor(private readonly api: CorralApi) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.start();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) {
        this.halt?.();
        this.halt = null;
      }
    };
  };

  private start(): void {
    this.load();
    const off = this.api.on('event', (event) => {
      if (event.type === 'incident-opened' || event.type === 'incident-closed') this.load();
    });
    const timer = setInterval(() => this.load(), REFRESH_MS);
    this.halt = () => {
      off();
      clearInterval(timer);
    };
  }

  private load(): void {
    this.api.request('incidents:list', { limit: LIMIT }).then(
      (list) => {
        this.incidents = list;
        for (const l of this.listeners) l();
      },
      // History is decoration: without it the row shows what it always did.
      () => {},
    );
  }
}

const sources = new WeakMap<CorralApi, RecentIncidents>();

export function useRecentIncidents(): readonly Incident[] {
  const api = useCorralApi();
  let source = sources.get(api);
  if (!source) {
    source = new RecentIncidents(api);
    sources.set(api, source);
  }
  const s = source;
  return useSyncExternalStore(s.subscribe, () => s.incidents);
}
