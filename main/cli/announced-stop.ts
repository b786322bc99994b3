import type { SignalRecord, TeardownResult } from '../../shared/model';
import type { StopGroupOptions } from '../core/actions/stop-group';
import { announceStop } from '../core/actions/resolve-group-id';

/**
 * The hooks a CLI stop passes to stopGroup so that the Corral recording incidents learns of it: the
 * request before the first signal (the incident ends `stopped-by-user`), then each signal as it is
 * sent (the group's timeline shows who stopped it and how).
 */
export function announcedStop(): Required<Pick<StopGroupOptions, 'beforeSignal' | 'onProgress'>> & {
  finish: (result: TeardownResult) => void;
} {
  let write: ((signals: readonly SignalRecord[]) => void) | null = null;
  let written = 0;
  const note = (signals: readonly SignalRecord[]): void => {
    if (write === null || signals.length === written) return;
    written = signals.length;
    write(signals);
  };
  return {
    beforeSignal: (group) => {
      write = announceStop(group);
    },
    onProgress: (partial) => note(partial.signals),
    finish: (result) => note(result.signals),
  };
}
