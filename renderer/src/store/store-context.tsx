import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { CorralApi } from '../../../shared/contract';
import type { CorralStore } from './create-store';
import type { CorralState } from './slices';

interface CorralContextValue {
  api: CorralApi;
  store: CorralStore;
}

const CorralContext = createContext<CorralContextValue | null>(null);

export function CorralProvider({ api, store, children }: CorralContextValue & { children: ReactNode }) {
  const value = useMemo(() => ({ api, store }), [api, store]);
  return <CorralContext.Provider value={value}>{children}</CorralContext.Provider>;
}

function useCorralContext(): CorralContextValue {
  const value = useContext(CorralContext);
  if (!value) throw new Error('CorralProvider is missing');
  return value;
}

export function useCorral<T>(selector: (state: CorralState) => T): T {
  return useStore(useCorralContext().store, selector);
}

export function useCorralApi(): CorralApi {
  return useCorralContext().api;
}

export function useCorralStore(): CorralStore {
  return useCorralContext().store;
}
