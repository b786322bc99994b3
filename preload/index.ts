// The renderer's only door to the main process: two named functions, never ipcRenderer itself.
// Runs sandboxed, so it may only require 'electron'; electron-vite bundles the shared contract in.
import { contextBridge, ipcRenderer } from 'electron';
import {
  PUSH_CHANNELS,
  REQUEST_CHANNELS,
  type CorralApi,
  type PushChannel,
  type RequestChannel,
} from '../shared/contract';
import { IPC_PUSH, IPC_REQUEST } from '../shared/ipc-channels';

type Listener = (payload: unknown) => void;
const listeners = new Map<PushChannel, Set<Listener>>();

ipcRenderer.on(IPC_PUSH, (_event, channel: PushChannel, payload: unknown) => {
  for (const listener of listeners.get(channel) ?? []) listener(payload);
});

async function request(channel: RequestChannel, payload: unknown): Promise<unknown> {
  if (!(REQUEST_CHANNELS as readonly string[]).includes(channel)) {
    throw new Error(`unknown request channel '${String(channel)}'`);
  }
  const result = (await ipcRenderer.invoke(IPC_REQUEST, channel, payload)) as
    { ok: true; payload: unknown } | { ok: false; error: string };
  if (!result.ok) throw new Error(result.error);
  return result.payload;
}

function on(channel: PushChannel, listener: Listener): () => void {
  if (!(PUSH_CHANNELS as readonly string[]).includes(channel)) {
    throw new Error(`unknown push channel '${String(channel)}'`);
  }
  if (typeof listener !== 'function') throw new Error('listener must be a function');
  const set = listeners.get(channel) ?? new Set<Listener>();
  listeners.set(channel, set);
  set.add(listener);
  return () => {
    set.delete(listener);
  };
}

const api: CorralApi = { request: request as CorralApi['request'], on: on as CorralApi['on'] };

contextBridge.exposeInMainWorld('corral', api);
