// docs/glossary.md is the one table's words for a reader: each flag's word, term and meaning as
// shared/flags.ts declares them, and each way an incident ends as shared/words/end-words.ts says it. A flag
// or a word changed in the table and not in the glossary fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INCIDENT_END_WORDS } from '../../shared/words/end-words';
import { ESCAPED_ENTRY, FLAG_TABLE, GROUP_FLAGS } from '../../shared/flags';

const glossary = readFileSync(new URL('../../docs/glossary.md', import.meta.url), 'utf8');

/** The flags table's rows: term → [word, meaning, incident]. */
const rows = new Map(
  glossary
    .split('\n')
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .filter((cells) => cells.length === 6 && /^`[a-z-]+`$/.test(cells[2]!))
    .map(([, word, term, means, incident]) => [term!.slice(1, -1), [word, means, incident]]),
);

describe('docs/glossary.md says what the one table says', () => {
  it.each(GROUP_FLAGS)('the flag %s: its word, meaning and whether it makes an incident', (flag) => {
    const e = FLAG_TABLE[flag];
    expect(rows.get(flag)).toEqual([e.word, e.meaning, e.incident ? 'yes' : 'no']);
  });

  it('a process that left its group, and no flag the table lacks', () => {
    expect(rows.get('escaped')).toEqual([ESCAPED_ENTRY.word, ESCAPED_ENTRY.meaning, 'no']);
    expect([...rows.keys()].sort()).toEqual([...GROUP_FLAGS, 'escaped'].sort());
  });

  it('every way an incident ends, in its words', () => {
    for (const words of Object.values(INCIDENT_END_WORDS)) expect(glossary).toContain(words);
  });
});
