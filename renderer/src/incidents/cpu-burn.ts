import type { Incident } from '../../../shared/model';

export interface BurnRow {
  key: string;
  cpuSeconds: number;
  incidents: number;
}

/** Local calendar day of a time, `YYYY-MM-DD`. */
export function localDay(at: number): string {
  const d = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function sumBy(incidents: readonly Incident[], keyOf: (incident: Incident) => string): BurnRow[] {
  const rows = new Map<string, BurnRow>();
  for (const incident of incidents) {
    const key = keyOf(incident);
    const row = rows.get(key) ?? { key, cpuSeconds: 0, incidents: 0 };
    rows.set(key, { key, cpuSeconds: row.cpuSeconds + incident.cpuSeconds, incidents: row.incidents + 1 });
  }
  return [...rows.values()];
}

/** CPU-seconds burned per agent, most first; incidents with no agent are counted under `unattributed`. */
export function cpuBurnByAgent(incidents: readonly Incident[]): BurnRow[] {
  return sumBy(incidents, (i) => i.agent ?? 'unattributed').sort(
    (a, b) => b.cpuSeconds - a.cpuSeconds || a.key.localeCompare(b.key),
  );
}

/** CPU-seconds burned per local day the incident opened on, newest day first. */
export function cpuBurnByDay(incidents: readonly Incident[]): BurnRow[] {
  return sumBy(incidents, (i) => localDay(i.openedAt)).sort((a, b) => b.key.localeCompare(a.key));
}
