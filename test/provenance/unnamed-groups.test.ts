import { describe, expect, it } from 'vitest';
import {
  ASK_AGAIN_EVERY_MS,
  ASK_AGAIN_FOR_MS,
  UnnamedGroups,
} from '../../main/core/provenance/unnamed-groups';

describe('the groups asked again for their session', () => {
  it('are due on their pace, only among the groups shown, and never once found or ended', () => {
    const unnamed = new UnnamedGroups();
    unnamed.note('a', 0);
    unnamed.note('b', 0);
    expect([...unnamed.due(['a', 'b'], ASK_AGAIN_EVERY_MS - 1)]).toEqual([]);
    expect([...unnamed.due(['a'], ASK_AGAIN_EVERY_MS)]).toEqual(['a']);
    // Asked just now: not again until its pace comes round; b was not shown, so it is still due.
    expect([...unnamed.due(['a', 'b'], ASK_AGAIN_EVERY_MS + 1)]).toEqual(['b']);
    unnamed.forget('a');
    unnamed.note('b', 3 * ASK_AGAIN_EVERY_MS);
    expect([...unnamed.due(['a', 'b'], 4 * ASK_AGAIN_EVERY_MS - 1)]).toEqual([]);
    expect([...unnamed.due(['a', 'b'], 4 * ASK_AGAIN_EVERY_MS)]).toEqual(['b']);
  });

  it('are given up after a while, counted from the first look, and bounded in number', () => {
    const unnamed = new UnnamedGroups();
    unnamed.note('a', 0);
    unnamed.note('a', ASK_AGAIN_FOR_MS);
    expect([...unnamed.due(['a'], ASK_AGAIN_FOR_MS + ASK_AGAIN_EVERY_MS)]).toEqual([]);
    expect(unnamed.size).toBe(0);
    for (let i = 0; i < 1000; i++) unnamed.note(`g${i}`, 0);
    expect(unnamed.size).toBe(256);
    expect(unnamed.due(['g999'], ASK_AGAIN_EVERY_MS).size).toBe(0);
  });
});
