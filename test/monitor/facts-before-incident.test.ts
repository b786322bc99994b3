import { describe, expect, it } from 'vitest';
import { notePortFacts } from '../../main/core/monitor/incidents/incident-port-glue';
import { rec } from '../core/record-fixture';
import { AGENT, monitorTable } from './table-fixture';

// A dev server's port is read while its tool call still runs (no incident yet); the call's shell then
// exits and the server is an orphan, but a user may stop it before another view is built. What the view
// said must still reach the incident the group opens, or history cannot tell who held the port.
const SHELL = rec({ pid: 300, ppid: 200, pgid: 300, sid: 300, name: 'bash', argv: ['bash'], startKey: 100 });
const SERVER = rec({
  pid: 301,
  ppid: 300,
  pgid: 300,
  sid: 300,
  name: 'node',
  argv: ['node', 'server.mjs', '4000'],
  startKey: 101,
});

describe("a live group's facts seen before its incident opened", () => {
  it('are noted on the incident it opens next', () => {
    const { state, table, groups, incidents } = monitorTable();

    table.ingest([AGENT, SHELL, SERVER], new Set([200, 300, 301]), null, 1_000, true);
    groups.update(1_000);
    incidents.updateAll(1_000);
    const group = state.liveGroupByPgid.get(300)!;
    expect(group.agent?.name).toBe('claude-code');
    expect(incidents.openIncidents()).toEqual([]);
    const view = {
      ports: [{ protocol: 'tcp' as const, address: '127.0.0.1', port: 4000 }],
      processes: [],
      session: null,
    };
    expect(incidents.amendOpenOrNext(group.id, (incident) => notePortFacts(incident, view))).toBe(false);

    // The tool call's shell exits: the server is reparented to init and its group's incident opens.
    table.ingest([AGENT, { ...SERVER, ppid: 1 }], new Set([200, 301]), null, 2_000, true);
    groups.update(2_000);
    incidents.updateAll(2_000);
    const [incident] = incidents.openIncidents();
    expect(incident?.groupId).toBe(group.id);
    expect(incident?.ports).toEqual([4000]);
  });
});
