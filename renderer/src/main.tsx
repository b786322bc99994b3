// Fast refresh's preamble as a module: the CSP forbids the inline script the React plugin would add.
import '@vitejs/plugin-react/preamble';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { MissingToken } from './MissingToken';
import { CorralProvider } from './store/store-context';
import { createCorralStore } from './store/create-store';
import { connectStore } from './sync/connect-store';
import { followLocationGroup } from './sync/location-group';
import { startTimelineSync } from './sync/timeline-sync';
import { pickApi } from './transport/pick-api';

const root = createRoot(document.getElementById('root')!);
const picked = pickApi();

if (picked.kind === 'missing-token') {
  root.render(<MissingToken />);
} else {
  const store = createCorralStore();
  if (picked.kind === 'websocket') {
    // `connecting` follows a close: keep showing the loss until the socket is open again.
    picked.api.onStatus((status) => {
      if (status !== 'connecting') store.getState().setConnection(status);
    });
  }
  connectStore(picked.api, store);
  startTimelineSync(picked.api, store);
  followLocationGroup(window, store);
  root.render(
    <StrictMode>
      <CorralProvider api={picked.api} store={store}>
        <App />
      </CorralProvider>
    </StrictMode>,
  );
}
