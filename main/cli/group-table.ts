import { commandThatMatters } from '../../shared/words/command-summary';
import { BACKGROUND_TASK_LABEL, isLiveBackgroundTask } from '../../shared/background-task';
import { keptLabel } from '../../shared/words/keep-duration';
import { flagsInWords, flagWords } from '../../shared/words/flag-words';
import { FLAG_TABLE, isGroupFlag, type FlagEntry } from '../../shared/flags';
import type { GroupView, ProcessView } from '../../shared/model';
import {
  leftoverCommand,
  projectName,
  listedSessionWords,
  sessionAgentWords,
  sessionIdsOf,
  shortSessionId,
} from '../../shared/words/provenance-text';
import { spawnStormNow } from '../../shared/words/spawn-storm-words';
import { compareGroups, groupSeverity } from '../../shared/triage';
import { formatBytes, formatDuration, printable } from './terminal-text';
import { fitLine, paint, truncate, type Terminal } from './terminal';

// One heading line per agent session (as the UI's overview), then its groups, each followed by its
// processes in the same columns. WHAT (the leak's description and command) takes the width left.
const HEADER = ['GROUP', 'PROCS', 'CPU%', 'MEM', 'AGE', 'FLAGS', 'WHAT'];
const RIGHT = new Set([1, 2, 3, 4]);
const FLAGS_COLUMN = 5;
const CPU_COLUMN = 2;
const WHAT = HEADER.length - 1;
/** Below this many columns for WHAT, FLAGS gives way (down to FLAGS_MIN, then `+N`). */
const MIN_WHAT = 40;
const FLAGS_MIN = 11;

function flagStyle(flag: string): FlagEntry['colour'] {
  return isGroupFlag(flag) ? FLAG_TABLE[flag].colour : 'yellow';
}

/** Flags in plain words (the terms stay in --json); `-` for none. */
export function flagsText(flags: readonly string[]): string {
  return flags.length === 0 ? '-' : flagsInWords(flags).join(', ');
}

/** As many flags' words as fit `width`, then `+N` for the rest. */
function fittedFlags(flags: readonly string[], width: number): string[] {
  const words = flagsInWords(flags);
  for (let n = words.length; n > 0; n--) {
    const rest = words.length - n;
    const text = words.slice(0, n).join(', ') + (rest > 0 ? ` +${rest}` : '');
    if (text.length <= width) return rest > 0 ? [...words.slice(0, n), `+${rest}`] : words;
  }
  return [truncate(words.join(', '), width)];
}

function paintFlags(term: Terminal, flags: readonly string[], width: number): string {
  if (flags.length === 0) return '-'.padEnd(width);
  const shown = fittedFlags(flags, width);
  const join = (parts: string[]): string => parts.join(', ').replace(', +', ' +');
  const text = join(shown);
  if (!term.colour) return text.padEnd(width);
  const painted = shown.map((w) => {
    const flag = flags.find((f) => flagWords(f) === w);
    return flag ? paint(term, flagStyle(flag), w) : w;
  });
  return join(painted) + ' '.repeat(Math.max(0, width - text.length));
}

function portsText(ports: GroupView['ports']): string {
  return ports && ports.length > 0 ? ` ${ports.map((p) => `:${p.port}`).join(' ')}` : '';
}

/** What leaked, in the words a person knows it by: the tool call's description, then its command. */
export function whatText(g: GroupView): string {
  const command = leftoverCommand(g);
  const described = g.toolCall?.description ? `${g.toolCall.description}: ${command}` : command;
  const leftOfService = g.processes.find((p) => p.serviceLeftover)?.serviceLeftover;
  if (leftOfService) return printable(`${leftOfService}: ${described}${portsText(g.ports)}`);
  return printable(`${described}${portsText(g.ports)}`);
}

/**
 * The heading a group sits under: its agent, and its agent session when known, its id as short as the
 * other sessions shown (`sessions`) allow.
 */
export function headingText(g: GroupView, sessions: Iterable<string> = []): string {
  if (!g.agent) return 'no agent';
  const agent = agentWords(g.agent);
  if (!g.session) return agent;
  const project = projectName(g.session.project) ?? 'unknown project';
  const listed = listedSessionWords(g.session);
  return printable(
    `${agent} · ${project} · session ${shortSessionId(g.session.id, sessions)}${listed ? ` ${listed}` : ''} · ${sessionAgentWords(g.session.agentAlive)}`,
  );
}

/** `claude-code (pid 48) · service pid 23`; the agent's service itself: `claude-code service (pid 23)`. */
function agentWords(agent: NonNullable<GroupView['agent']>): string {
  const pid = agent.pid ? ` (pid ${agent.pid})` : '';
  if (agent.servicePid === undefined) return `${agent.name}${pid}`;
  if (agent.servicePid === agent.pid) return `${agent.name} service${pid}`;
  return `${agent.name}${pid} · service pid ${agent.servicePid}`;
}

function headingKey(g: GroupView): string {
  return g.agent ? `${g.agent.name}\0${g.agent.pid ?? ''}\0${g.session?.id ?? ''}` : '';
}

/** Groups under their headings; headings in the order of their most urgent group. */
export function byHeading(
  groups: readonly GroupView[],
  compare: (a: GroupView, b: GroupView) => number = compareGroups,
): Array<{ heading: string; groups: GroupView[] }> {
  const sections = new Map<string, { heading: string; groups: GroupView[] }>();
  const sessions = sessionIdsOf(groups);
  for (const g of [...groups].sort(compare)) {
    const key = headingKey(g);
    let section = sections.get(key);
    if (!section) sections.set(key, (section = { heading: headingText(g, sessions), groups: [] }));
    section.groups.push(g);
  }
  return [...sections.values()];
}

function groupCells(g: GroupView, now: number): string[] {
  return [
    g.id,
    String(g.processes.length),
    g.cpuPercent === null ? '-' : g.cpuPercent.toFixed(1),
    formatBytes(g.rssBytes),
    formatDuration(now - g.startedAt),
    flagsText(g.flags),
    // A group running on purpose says so first: kept (`corral keep`, its flags stay), or a background
    // task of a live session.
    `${onPurposeText(g, now)}${g.spawnStorm ? `${printable(spawnStormNow(g.spawnStorm))}: ` : ''}${whatText(g)}`,
  ];
}

function onPurposeText(g: GroupView, now: number): string {
  if (g.kept) return `(${keptLabel(g.kept.until, now)}) `;
  return isLiveBackgroundTask(g) ? `(${BACKGROUND_TASK_LABEL}) ` : '';
}

function processCells(p: ProcessView, now: number): string[] {
  return [
    `  └ ${p.pid}`,
    p.state,
    p.cpuPercent === null ? '-' : p.cpuPercent.toFixed(1),
    p.rssBytes === null ? '?' : formatBytes(p.rssBytes),
    formatDuration(now - p.startedAt),
    flagsText(p.flags),
    printable(`${commandThatMatters(p.command)}${portsText(p.ports)}`),
  ];
}

/** One line of the table: the header, an agent session's heading, a group, or one of its processes. */
export interface TableLine {
  kind: 'header' | 'heading' | 'group' | 'process';
  text: string;
  /** The group a group or process line belongs to. */
  groupId?: string;
}

export interface TableOptions {
  /** Order of groups (and of headings, by their first group); triage order by default. */
  compare?: (a: GroupView, b: GroupView) => number;
  /** With each group's processes below it (ps, plain watch); without, one line per group. */
  processes?: boolean;
}

/**
 * Groups in triage order under their agent session's heading, each with its processes aligned in
 * the same columns. Fits `term.width`: WHAT takes what is left and is cut with `…`; on a narrow
 * terminal FLAGS is cut before WHAT is.
 */
export function groupTableLines(
  groups: readonly GroupView[],
  now: number,
  term: Terminal,
  { compare = compareGroups, processes = true }: TableOptions = {},
): TableLine[] {
  const sections = byHeading(groups, compare);
  type Row = { cells: string[]; flags: readonly string[]; group?: GroupView };
  const rows: Row[] = [];
  for (const s of sections)
    for (const g of s.groups) {
      rows.push({ cells: groupCells(g, now), flags: g.flags, group: g });
      for (const p of g.processes) rows.push({ cells: processCells(p, now), flags: p.flags });
    }
  const all = [HEADER, ...rows.map((r) => r.cells)];
  const widths = HEADER.map((_, i) => (i === WHAT ? 0 : Math.max(...all.map((r) => r[i]!.length))));
  const fixed = (): number => widths.slice(0, WHAT).reduce((sum, w) => sum + w + 2, 0);
  // FLAGS gives way to WHAT, down to a few words and `+N`.
  if (term.width - fixed() < MIN_WHAT)
    widths[FLAGS_COLUMN] = Math.max(
      Math.min(FLAGS_MIN, widths[FLAGS_COLUMN]!),
      widths[FLAGS_COLUMN]! - (MIN_WHAT - (term.width - fixed())),
    );
  const whatWidth = Math.max(0, term.width - fixed());
  const line = (cells: string[], header: boolean, flags: readonly string[] = [], group?: GroupView): string =>
    cells
      .map((cell, i) => {
        if (i === WHAT) return truncate(cell, whatWidth);
        if (i === FLAGS_COLUMN && !header) return paintFlags(term, flags, widths[i]!);
        const padded = RIGHT.has(i)
          ? cell.padStart(widths[i]!)
          : truncate(cell, widths[i]!).padEnd(widths[i]!);
        if (i === CPU_COLUMN && group && groupSeverity(group) === 'critical')
          return paint(term, 'red', padded);
        return padded;
      })
      .join('  ')
      .trimEnd();
  const fit = (l: string): string => fitLine(l, term.width);
  const out: TableLine[] = [{ kind: 'header', text: fit(paint(term, 'bold', line(HEADER, true))) }];
  let index = 0;
  for (const s of sections) {
    out.push({ kind: 'heading', text: fit(paint(term, 'bold', `▸ ${s.heading}`)) });
    for (const g of s.groups) {
      const row = rows[index++]!;
      out.push({ kind: 'group', text: fit(line(row.cells, false, row.flags, g)), groupId: g.id });
      for (let n = 0; n < g.processes.length; n++) {
        const prow = rows[index++]!;
        if (processes)
          out.push({ kind: 'process', text: fit(line(prow.cells, false, prow.flags)), groupId: g.id });
      }
    }
  }
  return out;
}

/** The table as text lines (ps, the plain watch screen). */
export function renderGroups(groups: readonly GroupView[], now: number, term: Terminal): string[] {
  return groupTableLines(groups, now, term).map((l) => l.text);
}
