import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import type { GroupView, Settings } from '../../../shared/model';
import { takeOneShotSnapshot } from '../../core/snapshot/one-shot-snapshot';
import { resolveDataDir } from '../../core/storage/data-dir';
import { loadEndedSessions, type EndedSession } from '../../hooks/ended-sessions';
import { formatBytes, formatDuration, formatTable, printable } from '../terminal-text';

export const PS_USAGE = 'corral ps [--all] [--json]';

export async function runPs(
  args: string[],
  settings: Settings,
  out: (text: string) => void,
): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { all: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
    strict: true,
    allowPositionals: false,
  });
  const snapshot = await takeOneShotSnapshot(settings, { endedSessions: endedSessionsOrNone() });
  const groups = values.all ? snapshot.groups : snapshot.groups.filter((g) => g.agent !== null);
  if (values.json) {
    out(JSON.stringify({ sampledAt: snapshot.sampledAt, groups }));
    return 0;
  }
  out(renderPsTable(groups, snapshot.sampledAt, values.all));
  return 0;
}

/** Sessions the agents' SessionEnd hooks reported (corral hooks install); none when unreadable. */
function endedSessionsOrNone(): Map<string, EndedSession> {
  try {
    return loadEndedSessions(resolveDataDir(process.env, process.platform, homedir()));
  } catch {
    return new Map();
  }
}

export function renderPsTable(groups: readonly GroupView[], now: number, all: boolean): string {
  if (groups.length === 0) {
    return all ? 'No process groups.' : 'No agent process groups. (`corral ps --all` shows every group.)';
  }
  const rows: string[][] = [
    ['AGENT', 'GROUP', 'PGID', 'SID', 'LEADER', 'PROCS', 'CPU%', 'MEM', 'AGE', 'FLAGS', 'COMMAND'],
  ];
  for (const g of groups) {
    const agent = g.agent ? `${g.agent.name}${g.agent.pid ? `(${g.agent.pid})` : ''}` : '-';
    rows.push([
      agent,
      g.id,
      String(g.pgid),
      String(g.sid),
      g.leaderAlive ? 'alive' : 'gone',
      String(g.processes.length),
      g.cpuPercent === null ? '-' : g.cpuPercent.toFixed(1),
      formatBytes(g.rssBytes),
      formatDuration(now - g.startedAt),
      g.flags.join(',') || '-',
      '',
    ]);
    for (const p of g.processes) {
      rows.push([
        '',
        `  pid ${p.pid}`,
        '',
        '',
        `ppid ${p.ppid}`,
        p.state,
        p.cpuPercent === null ? '-' : p.cpuPercent.toFixed(1),
        p.rssBytes === null ? '?' : formatBytes(p.rssBytes),
        formatDuration(now - p.startedAt),
        p.flags.join(',') || '-',
        printable(p.command).slice(0, 200),
      ]);
    }
  }
  return formatTable(rows);
}
