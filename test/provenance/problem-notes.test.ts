import { describe, expect, it } from 'vitest';
import { ProblemNotes } from '../../main/core/provenance/problem-notes';

describe('ProblemNotes', () => {
  it('says each problem once, however often it is met', () => {
    const said: string[] = [];
    const notes = new ProblemNotes((m) => said.push(m));
    for (let i = 0; i < 5; i++) {
      notes.say('ELOOP\0/p/.mcp.json', 'not reading /p/.mcp.json (ELOOP)');
      notes.say('ENOTDIR\0/c/.claude.json', 'not reading /c/.claude.json (ENOTDIR)');
    }
    expect(said).toEqual(['not reading /p/.mcp.json (ELOOP)', 'not reading /c/.claude.json (ENOTDIR)']);
  });

  it('says at most 32 problems, then once that it stops', () => {
    const said: string[] = [];
    const notes = new ProblemNotes((m) => said.push(m));
    for (let i = 0; i < 100; i++) notes.say(`k${i}`, `problem ${i}`);
    expect(said).toHaveLength(33);
    expect(said[31]).toBe('problem 31');
    expect(said[32]).toMatch(/further problems are not reported/);
  });

  it('a reporter that throws loses the note and nothing else', () => {
    const notes = new ProblemNotes(() => {
      throw new Error('stderr closed');
    });
    expect(() => notes.say('k', 'problem')).not.toThrow();
  });
});
