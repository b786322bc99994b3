import type { Incident } from '../../../shared/model';
import { compareCodeUnits } from '../../../shared/text-order';

export interface AgentCpu {
  agent: string | null;
  cpuSeconds: number;
}

export interface AgentDayCpu {
  agent: string | null;
  /** Calendar day, `YYYY-MM-DD`, in the time zone asked for. */
  day: string;
  cpuSeconds: number;
}

export interface CpuUsage {
  /** Highest first. */
  byAgent: AgentCpu[];
  /** By day, then agent. */
  byAgentAndDay: AgentDayCpu[];
}

export interface CpuUsageOptions {
  /** End of still-open incidents. */
  now: number;
  timeZone?: 'local' | 'utc';
}

interface Burn {
  agent: string | null;
  from: number;
  to: number;
  cpuSeconds: number;
}

/**
 * One group flagged as orphan and runaway at once has two incidents measuring the same CPU: per group,
 * overlapping incidents count once, with the largest figure among them (a lower bound, never double).
 */
function burnsPerGroup(incidents: readonly Incident[], now: number): Burn[] {
  const byGroup = new Map<string, Incident[]>();
  for (const incident of incidents) {
    const list = byGroup.get(incident.groupId) ?? [];
    list.push(incident);
    byGroup.set(incident.groupId, list);
  }
  const burns: Burn[] = [];
  for (const list of byGroup.values()) {
    list.sort((a, b) => a.openedAt - b.openedAt);
    let current: Burn | null = null;
    for (const incident of list) {
      const to = Math.max(incident.openedAt, incident.closedAt ?? now);
      if (current && incident.openedAt <= current.to) {
        current.to = Math.max(current.to, to);
        current.cpuSeconds = Math.max(current.cpuSeconds, incident.cpuSeconds);
        current.agent ??= incident.agent;
      } else {
        current = { agent: incident.agent, from: incident.openedAt, to, cpuSeconds: incident.cpuSeconds };
        burns.push(current);
      }
    }
  }
  return burns;
}

function dayBounds(at: number, utc: boolean): { key: string; end: number } {
  const d = new Date(at);
  const [y, m, day] = utc
    ? [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()]
    : [d.getFullYear(), d.getMonth(), d.getDate()];
  const key = `${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  const end = utc ? Date.UTC(y, m, day + 1) : new Date(y, m, day + 1).getTime();
  return { key, end };
}

/** Splits a burn over the days it spans, in proportion to the time spent in each (CPU is not sampled per day). */
function spreadOverDays(burn: Burn, utc: boolean): Array<[string, number]> {
  const span = burn.to - burn.from;
  if (span <= 0) return [[dayBounds(burn.from, utc).key, burn.cpuSeconds]];
  const parts: Array<[string, number]> = [];
  for (let at = burn.from; at < burn.to;) {
    const { key, end } = dayBounds(at, utc);
    const until = Math.min(end, burn.to);
    parts.push([key, (burn.cpuSeconds * (until - at)) / span]);
    at = until;
  }
  return parts;
}

/** CPU-seconds burned while flagged, per agent and per agent and day. */
export function cpuUsage(
  incidents: readonly Incident[],
  { now, timeZone = 'local' }: CpuUsageOptions,
): CpuUsage {
  const utc = timeZone === 'utc';
  const perAgent = new Map<string | null, number>();
  const perDay = new Map<string, AgentDayCpu>();
  for (const burn of burnsPerGroup(incidents, now)) {
    perAgent.set(burn.agent, (perAgent.get(burn.agent) ?? 0) + burn.cpuSeconds);
    for (const [day, seconds] of spreadOverDays(burn, utc)) {
      const key = JSON.stringify([day, burn.agent]);
      const row = perDay.get(key) ?? { agent: burn.agent, day, cpuSeconds: 0 };
      row.cpuSeconds += seconds;
      perDay.set(key, row);
    }
  }
  const byAgent = [...perAgent].map(([agent, cpuSeconds]) => ({ agent, cpuSeconds }));
  byAgent.sort((a, b) => b.cpuSeconds - a.cpuSeconds);
  const byAgentAndDay = [...perDay.values()].sort(
    (a, b) => compareCodeUnits(a.day, b.day) || compareCodeUnits(a.agent ?? '', b.agent ?? ''),
  );
  return { byAgent, byAgentAndDay };
}
