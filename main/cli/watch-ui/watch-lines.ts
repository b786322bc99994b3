// What `corral watch`'s list opens on a key: `k`'s confirmation and Enter's details (watch-app.ts).
import type * as InkModule from 'ink';
import { createElement as h, type ReactNode } from 'react';
import { commandThatMatters } from '../../../shared/words/command-summary';
import { FLAG_MEANING, flagWords } from '../../../shared/words/flag-words';
import type { GroupView } from '../../../shared/model';
import { sessionIdsOf } from '../../../shared/words/provenance-text';
import { stopModes, stopTargets } from '../../../shared/stop-targets';
import { targetsSentence } from '../../../shared/words/stop-wording';
import { groupTableLines, headingText } from '../group-table';
import { printable } from '../terminal-text';
import { truncate } from '../terminal';

/** What `k` shows: the group, the sentence and the processes the UI's stop dialog lists. */
export function confirmLines(
  Text: typeof InkModule.Text,
  group: GroupView,
  graceMs: number,
  width: number,
  stopping: boolean,
): ReactNode[] {
  const mode = stopModes(group)[0]!;
  const targets = stopTargets(group, mode);
  const who = group.agent ? `${group.agent.name}'s ` : '';
  const lines: ReactNode[] = [
    h(
      Text,
      { key: 'c-title', bold: true, wrap: 'truncate' },
      `Stop group ${group.pgid} (${who}${group.processes.length} process${group.processes.length === 1 ? '' : 'es'})${mode === 'orphans-only' ? ': only its orphans (it holds the agent itself)' : ''}?`,
    ),
    h(Text, { key: 'c-sentence', wrap: 'truncate' }, targetsSentence(targets.length, graceMs)),
  ];
  for (const p of targets)
    lines.push(
      h(
        Text,
        { key: `c-${p.pid}`, wrap: 'truncate' },
        truncate(`  pid ${String(p.pid).padEnd(7)} ${printable(commandThatMatters(p.command))}`, width),
      ),
    );
  lines.push(
    h(
      Text,
      { key: 'c-keys', bold: true, color: 'yellow' },
      stopping ? 'Stopping…' : 'Press y to stop them, n to cancel.',
    ),
  );
  return lines;
}

/** What Enter shows: the group's heading, its flags in words, its processes and its story. */
export function detailLines(
  Text: typeof InkModule.Text,
  group: GroupView,
  shown: readonly GroupView[],
  now: number,
  term: { colour: boolean; width: number; height: number },
  story: string | null,
): ReactNode[] {
  const lines: ReactNode[] = [
    h(
      Text,
      { key: 'd-h', bold: true, wrap: 'truncate' },
      `Group ${group.id} · ${headingText(group, sessionIdsOf(shown))}`,
    ),
  ];
  for (const flag of group.flags)
    lines.push(
      h(
        Text,
        { key: `d-f-${flag}`, wrap: 'truncate' },
        `  ${flagWords(flag)}: ${FLAG_MEANING[flag as keyof typeof FLAG_MEANING] ?? flag}`,
      ),
    );
  lines.push(
    h(Text, { key: 'd-story', wrap: 'wrap' }, `Story: ${story ?? 'reading the timeline…'}`),
    h(Text, { key: 'd-gap' }, ' '),
  );
  for (const [i, l] of groupTableLines([group], now, term).entries())
    if (l.kind !== 'heading')
      lines.push(h(Text, { key: `d-t${i}`, wrap: 'truncate', bold: l.kind === 'header' }, `  ${l.text}`));
  return lines;
}
