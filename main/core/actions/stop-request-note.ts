import type { SignalRecord } from '../../../shared/model';
import { homedir } from 'node:os';
import { resolveDataDir } from '../storage/data-dir';
import { recordStopRequest } from '../storage/stop-requests';
import type { StopRecorder } from './stop-and-record';

/**
 * The recorder of a stop asked in a one-shot command (`corral kill`): before the first signal, a note in
 * the data directory tells whichever Corral records incidents there that the user is stopping this group
 * (its incident closes as `stopped-by-user` wherever the stop was asked); the same note is written again
 * with the signals sent so far, which that Corral shows on the group's timeline.
 */
export function stopRequestNote(
  dataDir = resolveDataDir(process.env, process.platform, homedir()),
  via = 'corral kill',
): StopRecorder {
  let write: ((signals: readonly SignalRecord[]) => void) | null = null;
  return {
    stopping: (group) => {
      write = recordStopRequest(dataDir, {
        groupId: group.id,
        pgid: group.pgid,
        members: group.processes.map((p) => ({ pid: p.pid, startKey: p.startKey })),
        at: Date.now(),
        via,
      });
    },
    signalled: (_group, _fresh, all) => write?.(all),
  };
}
