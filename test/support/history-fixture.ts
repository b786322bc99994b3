// A history of 1,000 incidents written through the real IncidentStore, shaped like the one issue 47
// met: another session's many leaks, newest, bury the four of the session being looked at. The
// expected answer of any filter is computed here from the list itself, not from SQL.
import type { IncidentFilter } from '../../shared/contract';
import { INCIDENT_FLAGS } from '../../shared/incident-filter';
import type { Incident, SpawnStormFacts } from '../../shared/model';
import { IncidentStore } from '../../main/core/storage/incident-store';
import { makeIncident } from '../storage/make-incident';

export const HISTORY_SIZE = 1_000;
export const NEEDLE_SESSION = 'needle-session-0001';
export const NEEDLE_PROJECT = '/work/needle';
const AGENTS = ['codex', 'gemini', 'claude-code'];
// Long commands, as leaks have them: a table must show enough of them to tell them apart.
const COMMANDS = [
  (i: number) =>
    `node /home/dev/projects/shop-frontend/node_modules/.bin/vite --host 127.0.0.1 --port ${5000 + i} --strictPort`,
  (i: number) => `bash -c 'until false; do curl -s http://127.0.0.1:${3000 + i}/health; done'`,
  (i: number) =>
    `python3 -m http.server ${8000 + i} --bind 127.0.0.1 --directory /home/dev/projects/docs/build/html`,
  (i: number) => `sleep ${600 + i}`,
];

// A fork storm at its peak, with the long words the page and the CLI show for it.
const STORM: SpawnStormFacts = {
  reason: 'repeated-command',
  birthsPerMinute: 1840,
  repeatsPerMinute: 1790,
  peakBirthsPerMinute: 2210,
  members: 3,
  peakMembers: 12,
  births: 40210,
  unseenBirths: 3911,
  repeated: [
    {
      command: 'node /home/dev/projects/shop-frontend/scripts/check-health.mjs --retry-forever',
      count: 20410,
    },
    { command: "sh -c 'sleep 0.01 && curl -sf http://127.0.0.1:3000/ready'", count: 19800 },
  ],
};

/** The incidents, newest first: one every 10 s back from `now`, the needle's four among the oldest. */
export function historyIncidents(now: number): Incident[] {
  return Array.from({ length: HISTORY_SIZE }, (_, i) => {
    const needle = i >= 900 && i < 904;
    const flag = INCIDENT_FLAGS[i % INCIDENT_FLAGS.length]!;
    const openedAt = now - (i + 1) * 10_000;
    const open = i % 50 === 0;
    return makeIncident(`inc-${String(i).padStart(4, '0')}`, {
      kind: flag,
      // Some leaks had more flags later: a filter finds an incident by any of them.
      flags:
        i % 12 === 1
          ? [flag, 'runaway', 'held-pipe', 'memory-hog']
          : i % 4 === 0 && flag !== 'runaway'
            ? [flag, 'runaway']
            : [flag],
      openedAtSource: i % 3 === 0 ? 'noticed' : 'observed',
      ...(flag === 'spawn-storm' ? { spawnStorm: STORM } : {}),
      agent: needle ? 'claude-code' : AGENTS[i % AGENTS.length]!,
      groupId: `${7000 + i}:${7000 + i}:${i}`,
      pgid: 7000 + i,
      sid: 7000 + i,
      processes: [{ pid: 7000 + i, startKey: i, command: COMMANDS[i % COMMANDS.length]!(i) }],
      cpuSeconds: (i * 37) % 5000,
      peakRssBytes: ((i * 7919) % 4096) * 1024 * 1024,
      openedAt,
      closedAt: open ? null : openedAt + 5_000,
      end: open ? 'open' : i % 7 === 0 ? 'stopped-by-policy' : 'exited',
      ...(i % 10 === 9 && !needle
        ? {}
        : {
            session: needle
              ? { id: NEEDLE_SESSION, project: NEEDLE_PROJECT }
              : { id: `other-session-${i % 7}`, project: `/work/project-${i % 5}` },
          }),
    });
  });
}

/** Writes the history into `dataDir` through the store a running Corral uses. */
export function writeHistory(dataDir: string, now: number): Incident[] {
  const incidents = historyIncidents(now);
  const store = IncidentStore.open(dataDir);
  try {
    for (let i = 0; i < incidents.length; i += 100) store.upsert(incidents.slice(i, i + 100));
  } finally {
    store.close();
  }
  return incidents;
}

/** What a filter must answer, newest first, worked out from the incidents themselves. */
export function expectedIds(incidents: readonly Incident[], filter: IncidentFilter): string[] {
  return incidents
    .filter(
      (i) =>
        (filter.agent === undefined || i.agent === filter.agent) &&
        (filter.sessionId === undefined || (i.session?.id.startsWith(filter.sessionId) ?? false)) &&
        (filter.project === undefined || i.session?.project === filter.project) &&
        (filter.flag === undefined || i.flags.includes(filter.flag)) &&
        (filter.sinceMs === undefined || i.closedAt === null || i.closedAt >= filter.sinceMs) &&
        (filter.untilMs === undefined || i.openedAt <= filter.untilMs),
    )
    .sort((a, b) => b.openedAt - a.openedAt || (a.id < b.id ? 1 : -1))
    .map((i) => i.id);
}
