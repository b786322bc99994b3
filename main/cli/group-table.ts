import { commandThatMatters } from '../../shared/command-summary';
import { keptLabel } from '../../shared/keep-duration';
import type { GroupView, ProcessView } from '../../shared/model';
import { sessionAgentWords, shortSessionId } from '../../shared/provenance-text';
import { compareGroups, groupSeverity } from '../../shared/triage';
import { formatBytes, formatDuration, printable } from './terminal-text';
import { fitLine, paint, truncate, type Terminal } from './terminal';

// PGID is the first part of GROUP and `leaderless` says the leader is gone: no column repeats them.
const HEADER = ['AGENT', 'GROUP', 'PROCS', 'CPU%', 'MEM', 'AGE', 'FLAGS', 'COMMAND'];
const RIGHT = new Set([2, 3, 4, 5]);
const FLAGS_COLUMN = 6;
const CPU_COLUMN = 3;

function flagStyle(flag: string): 'red' | 'yellow' | 'magenta' | 'cyan' {
  if (flag === 'runaway' || flag === 'memory-hog') return 'red';
  if (flag === 'held-pipe') return 'magenta';
  if (flag === 'leaderless') return 'cyan';
  return 'yellow';
}

function paintFlags(term: Terminal, flags: readonly string[]): string {
  return flags.length === 0 ? '-' : flags.map((f) => paint(term, flagStyle(f), f)).join(',');
}

function groupCells(g: GroupView, now: number): string[] {
  const agent = g.agent ? `${g.agent.name}${g.agent.pid ? `(${g.agent.pid})` : ''}` : '-';
  const leader = g.processes.find((p) => p.pid === g.leaderPid) ?? g.processes[0];
  return [
    agent,
    g.id,
    String(g.processes.length),
    g.cpuPercent === null ? '-' : g.cpuPercent.toFixed(1),
    formatBytes(g.rssBytes),
    formatDuration(now - g.startedAt),
    g.flags.join(',') || '-',
    // A group kept on purpose (`corral keep`) says so first: its flags stay.
    `${g.kept ? `(${keptLabel(g.kept.until, now)}) ` : ''}${printable(provenanceText(g) || commandThatMatters(leader?.command ?? ''))}`,
  ];
}

/** A process under its group, in its own layout: pid, ppid, state, CPU, memory, age, flags, command. */
function processLine(p: ProcessView, now: number, indent: number, term: Terminal): string {
  const cpu = p.cpuPercent === null ? '-' : `${p.cpuPercent.toFixed(1)}%`;
  const plain = `${' '.repeat(indent)}└ pid ${p.pid}  ppid ${p.ppid}  ${p.state}  ${cpu}  ${p.rssBytes === null ? '?' : formatBytes(p.rssBytes)}  ${formatDuration(now - p.startedAt)}  `;
  const flags = p.flags.join(',');
  const command = printable(`${commandThatMatters(p.command)}${portsText(p.ports)}`);
  const room = term.width - plain.length - (flags ? flags.length + 2 : 0);
  return `${paint(term, 'dim', plain)}${flags ? `${paintFlags(term, p.flags)}  ` : ''}${truncate(command, Math.max(8, room))}`;
}

/**
 * Groups in triage order (flagged first, then by CPU band, then oldest), each with its processes on their own lines.
 * Fits `term.width`: the command column takes what is left and is cut with `…`.
 */
export function renderGroups(groups: readonly GroupView[], now: number, term: Terminal): string[] {
  const sorted = [...groups].sort(compareGroups);
  const rows = [HEADER, ...sorted.map((g) => groupCells(g, now))];
  const last = HEADER.length - 1;
  const widths = HEADER.map((_, i) => (i === last ? 0 : Math.max(...rows.map((r) => r[i]!.length))));
  const fixed = widths.slice(0, last).reduce((sum, w) => sum + w + 2, 0);
  // Too narrow for a readable command on the group's line: the process lines below carry it.
  const commandWidth = term.width - fixed;
  if (commandWidth < 20) for (const row of rows) row[last] = '';
  const line = (cells: string[], header: boolean, group?: GroupView): string =>
    cells
      .map((cell, i) => {
        if (i === last) return truncate(cell, Math.max(0, commandWidth));
        const padded = RIGHT.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!);
        if (header) return padded;
        if (i === FLAGS_COLUMN && group)
          return paintFlags(term, group.flags) + ' '.repeat(widths[i]! - cell.length);
        if (i === CPU_COLUMN && group && groupSeverity(group) === 'critical')
          return paint(term, 'red', padded);
        return padded;
      })
      .join('  ')
      .trimEnd();
  const out = [paint(term, 'bold', line(HEADER, true))];
  sorted.forEach((g, index) => {
    out.push(line(rows[index + 1]!, false, g));
    for (const p of g.processes) out.push(processLine(p, now, 2, term));
  });
  return out.map((l) => fitLine(l, term.width));
}

function portsText(ports: GroupView['ports']): string {
  return ports && ports.length > 0 ? ` ${ports.map((p) => `:${p.port}`).join(' ')}` : '';
}

/** Where a group came from, on its own row: session, project, the tool call's words and command. */
function provenanceText(g: GroupView): string {
  const parts: string[] = [];
  if (g.session) {
    const project = g.session.project ? ` ${g.session.project}` : '';
    // Nothing is said while the session's agent runs.
    const agent = g.session.agentAlive === true ? '' : `, ${sessionAgentWords(g.session.agentAlive)}`;
    parts.push(`[session ${shortSessionId(g.session.id)}${project}${agent}]`);
  }
  if (g.toolCall) {
    parts.push(
      g.toolCall.description ? `${g.toolCall.description}: ${g.toolCall.command}` : `$ ${g.toolCall.command}`,
    );
  }
  return `${parts.join(' ')}${portsText(g.ports)}`.trim();
}
