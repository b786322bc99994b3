// The two Electron IPC channels. Every request travels on one channel and is validated in one place;
// the contract channel names ride inside (see shared/contract.ts).
export const IPC_REQUEST = 'corral:request';
export const IPC_PUSH = 'corral:push';
