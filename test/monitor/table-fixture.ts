// The monitor's table, tracker and incidents over records a test writes, with no sampler and no data
// directory; and the agent process those records descend from.
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { matcherFor } from '../../main/core/analysis/signatures';
import { IncidentGlue } from '../../main/core/monitor/incidents/incident-glue';
import { GroupTracker } from '../../main/core/monitor/table/group-tracker';
import { MonitorState } from '../../main/core/monitor/table/monitor-state';
import { ProcessTable } from '../../main/core/monitor/table/process-table';
import { rec } from '../core/record-fixture';

/** Claude Code's process (pid 200, its own group in session 100). */
export const AGENT = rec({
  pid: 200,
  ppid: 100,
  pgid: 200,
  sid: 100,
  name: 'claude',
  argv: ['claude'],
  startKey: 10,
});

export function monitorTable(): {
  state: MonitorState;
  table: ProcessTable;
  groups: GroupTracker;
  incidents: IncidentGlue;
} {
  const state = new MonitorState();
  const table = new ProcessTable(state, {
    settings: () => DEFAULT_SETTINGS,
    matcher: () => matcherFor(DEFAULT_SETTINGS),
    baseMs: 0,
  });
  const incidents = new IncidentGlue(state, []);
  return { state, table, groups: new GroupTracker(state, incidents), incidents };
}
