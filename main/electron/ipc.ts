// Electron IPC: one request channel through the shared validator, pushes to our window only.
import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import type { PushChannel, PushContract } from '../../shared/contract';
import type { CorralService } from '../core/service';
import { dispatch } from '../transport/dispatch';
import { IPC_PUSH, IPC_REQUEST } from '../../shared/ipc-channels';
import type { MainWindow } from './main-window';
import { isTrustedSender } from './sender-check';

export function registerIpc(service: CorralService, window: MainWindow): () => void {
  const push = <C extends PushChannel>(channel: C, payload: PushContract[C]) =>
    window.webContents?.send(IPC_PUSH, channel, payload);

  const trusted = (event: IpcMainInvokeEvent) =>
    isTrustedSender(
      {
        isOwnWindow: event.sender === window.webContents,
        isMainFrame: event.senderFrame !== null && event.senderFrame === event.sender.mainFrame,
        frameUrl: event.senderFrame?.url,
      },
      window.location,
    );

  ipcMain.handle(IPC_REQUEST, (event, channel: unknown, payload: unknown) => {
    if (!trusted(event)) return { ok: false, error: 'request refused: not from the Corral window' };
    return dispatch(service, channel, payload, (partial) => push('teardown:progress', partial));
  });
  const unsubscribe = [
    // The window gets one snapshot whole, then what changed, and nothing while nothing does; a reloaded
    // page resyncs with snapshot:get, answered with the snapshot the deltas chain on.
    service.onSnapshotPush((next) => {
      if (next.kind === 'whole') push('snapshot', next.snapshot);
      else if (next.kind === 'delta') push('snapshot:delta', next.delta);
    }),
    service.onEvent((event) => push('event', event)),
  ];
  return () => {
    ipcMain.removeHandler(IPC_REQUEST);
    for (const off of unsubscribe) off();
  };
}
