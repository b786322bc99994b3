import { cleanup, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach } from 'vitest';
import { CorralProvider } from '../../../renderer/src/store/store-context';
import { createCorralStore, type CorralStore } from '../../../renderer/src/store/create-store';
import { connectStore } from '../../../renderer/src/sync/connect-store';
import { startTimelineSync } from '../../../renderer/src/sync/timeline-sync';
import type { FakeCorralApi } from './fake-corral-api';

const teardowns: Array<() => void> = [];

afterEach(() => {
  cleanup();
  for (const teardown of teardowns.splice(0)) teardown();
});

/** Renders `ui` wired to `api` the way main.tsx wires the real transport. */
export function renderWithCorral(
  ui: ReactElement,
  api: FakeCorralApi,
  store: CorralStore = createCorralStore(),
) {
  const disconnect = connectStore(api, store);
  const stopTimeline = startTimelineSync(api, store);
  teardowns.push(stopTimeline, disconnect);
  const result = render(
    <CorralProvider api={api} store={store}>
      {ui}
    </CorralProvider>,
  );
  return { ...result, store };
}
