// @vitest-environment node
// Snapshots over the real WebSocket of the built `corral serve`, into the real renderer store: a page
// gets the whole snapshot first, then only what changed; a group that ends disappears; a page that
// misses a delta or reconnects fetches the whole picture again and agrees with the others.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServerMessage, SnapshotDelta } from '../../shared/contract';
import type { Snapshot } from '../../shared/model';
import { createCorralStore, type CorralStore } from '../../renderer/src/store/create-store';
import { connectStore } from '../../renderer/src/sync/connect-store';
import { createWebSocketApi, type WebSocketApi } from '../../renderer/src/transport/websocket-api';
import { startServe, type ServeProcess } from '../support/serve-process';
import { removeCreatedGroups, spawnGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

interface Page {
  store: CorralStore;
  api: WebSocketApi;
  /** The server's messages, one list per socket the page opened. */
  frames: ServerMessage[][];
  sockets: WebSocket[];
  close(): void;
}

/** The browser socket's handlers, as the page's API sets them. */
type Handler = ((event: { data?: string }) => void) | null;

let serve: ServeProcess;
const pages: Page[] = [];

// Per test: the shared clean-up removes every tracked group (the server's too) after each test.
beforeEach(async () => {
  serve = await startServe({ pollIntervalMs: 200 });
});

afterEach(async () => {
  for (const page of pages.splice(0)) page.close();
  await serve?.stop();
  await removeCreatedGroups();
});

/** A page: the renderer's WebSocket API and store; `drop` swallows chosen messages before the page sees them. */
function openPage(drop: (message: ServerMessage) => boolean = () => false): Page {
  const served = new URL(serve.url);
  const url = `ws://${served.host}/api?token=${served.searchParams.get('token')}`;
  const frames: ServerMessage[][] = [];
  const sockets: WebSocket[] = [];
  const api = createWebSocketApi({
    url,
    createSocket: (socketUrl) => {
      const ws = new WebSocket(socketUrl, { headers: { Origin: `http://${served.host}` } });
      const log: ServerMessage[] = [];
      frames.push(log);
      sockets.push(ws);
      const page = {
        get readyState() {
          return ws.readyState;
        },
        send: (data: string) => ws.send(data),
        close: () => ws.close(),
        onopen: null as Handler,
        onclose: null as Handler,
        onmessage: null as Handler,
        onerror: null as Handler,
      };
      ws.onopen = () => page.onopen?.({});
      ws.onclose = () => page.onclose?.({});
      ws.onerror = () => page.onerror?.({});
      ws.onmessage = (event) => {
        const message = JSON.parse(String(event.data)) as ServerMessage;
        log.push(message);
        if (!drop(message)) page.onmessage?.({ data: String(event.data) });
      };
      return page as never;
    },
  });
  const store = createCorralStore();
  const disconnect = connectStore(api, store);
  const page: Page = {
    store,
    api,
    frames,
    sockets,
    close: () => {
      disconnect();
      api.close();
    },
  };
  pages.push(page);
  return page;
}

/** A group whose members change at every poll: the server pushes a delta only when something changed. */
const churn = () => spawnGroup('while :; do sleep 0.1; done');

const pushes = (log: readonly ServerMessage[]) =>
  log.flatMap((m) => (m.kind === 'push' && m.channel.startsWith('snapshot') ? [m] : []));
const seqOf = (m: ServerMessage) => (m.kind === 'push' ? (m.payload as Snapshot).seq : -1);
const hasPgid = (page: Page, pgid: number) =>
  [...page.store.getState().groupsById.values()].some((g) => g.pgid === pgid);
const ids = (page: Page) => [...page.store.getState().groupsById.keys()].sort().join(' ');

/** Both pages hold the same snapshot number and the same groups. */
async function agree(a: Page, b: Page): Promise<void> {
  await waitFor('both pages to hold the same snapshot', () => {
    const [x, y] = [a.store.getState().snapshot, b.store.getState().snapshot];
    return x !== null && y !== null && x.seq === y.seq && ids(a) === ids(b);
  });
}

describe('snapshot deltas over the serve WebSocket', () => {
  it('a page that connects mid-way gets the whole snapshot, then deltas chained on it; an ended group disappears', async () => {
    const first = openPage();
    await waitFor('the first page to hold a snapshot', () => first.store.getState().snapshot !== null);
    const group = spawnGroup('sleep 600; :');
    await waitFor('the first page to show the new group', () => hasPgid(first, group.pgid));

    const late = openPage();
    await waitFor('the late page to show the group', () => hasPgid(late, group.pgid));
    churn();
    const deltasSeen = () => pushes(late.frames[0]!).length - 1;
    await waitFor('the late page to get ten deltas', () => deltasSeen() >= 10, { timeoutMs: 20_000 });
    process.kill(-group.pgid, 'SIGKILL');
    await waitFor(
      'both pages to drop the ended group',
      () => !hasPgid(first, group.pgid) && !hasPgid(late, group.pgid),
    );
    await agree(first, late);

    const log = pushes(late.frames[0]!);
    expect(log[0]).toMatchObject({ kind: 'push', channel: 'snapshot' });
    const deltas = log.slice(1).map((m) => {
      expect(m).toMatchObject({ kind: 'push', channel: 'snapshot:delta' });
      return (m as { payload: SnapshotDelta }).payload;
    });
    deltas.forEach((delta, i) => expect(delta.baseSeq).toBe(seqOf(log[i]!)));
    const groupId = (id: string) => id.startsWith(`${group.pgid}:`);
    expect(deltas.some((delta) => delta.removed.some(groupId))).toBe(true);
    // The sleeping group is not sent again while it does not change: it is in few of the deltas.
    const withGroup = deltas.filter((delta) => delta.groups.some((g) => groupId(g.id))).length;
    expect(withGroup).toBeLessThan(deltas.length / 2);
  });

  it('a page that misses a delta fetches the whole snapshot; one that reconnects is sent it whole', async () => {
    churn();
    const reference = openPage();
    let dropped = 0;
    const lossy = openPage((m) => m.kind === 'push' && m.channel === 'snapshot:delta' && dropped++ === 0);
    await waitFor('a delta to be missed', () => dropped > 1);
    await agree(reference, lossy);
    // The first fetch, then the one that filled the gap: answered with the snapshot the deltas chain on.
    expect(lossy.frames[0]!.filter((m) => m.kind === 'response' && m.ok).length).toBeGreaterThanOrEqual(2);

    lossy.sockets[0]!.terminate();
    const during = spawnGroup('sleep 600; :');
    await waitFor('the reconnected page to show the group started while it was away', () =>
      lossy.frames.length > 1 && hasPgid(lossy, during.pgid) ? true : undefined,
    );
    expect(pushes(lossy.frames[1]!)[0]).toMatchObject({ kind: 'push', channel: 'snapshot' });
    await agree(reference, lossy);
  });
});
