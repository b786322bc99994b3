import { describe, expect, it } from 'vitest';
import { formatNumber, markdownTable, sampledRow, textTable, verdict, type Row } from '../../bench/lib/table';

const row = (over: Partial<Row>): Row => ({
  section: 's',
  name: 'n',
  unit: 'ms',
  summary: { median: 10, min: 8, max: 12, n: 3 },
  ...over,
});

describe('bench table', () => {
  it.each([
    [{ target: { kind: 'at-most', value: 10 } }, 'pass'],
    [{ target: { kind: 'at-most', value: 9.99 } }, 'FAIL'],
    [{ target: { kind: 'at-least', value: 10 } }, 'pass'],
    [{ target: { kind: 'at-least', value: 11 } }, 'FAIL'],
    [{ target: { kind: 'at-most', value: 11 }, targetOn: 'max' }, 'FAIL'],
    [{ target: { kind: 'at-most', value: 250 }, targetOn: 'p95', p95: 260 }, 'FAIL'],
    [{ target: { kind: 'at-most', value: 250 }, targetOn: 'p95', p95: 240 }, 'pass'],
    [{ target: { kind: 'at-most', value: 1 }, summary: null }, 'n/a'],
    [{}, ''],
  ] as Array<[Partial<Row>, string]>)('verdict of %j is %s', (over, expected) => {
    expect(verdict(row(over))).toBe(expected);
  });

  it.each([
    [0, '0'],
    [1234.5, '1235'],
    [12.345, '12.3'],
    [1.2345, '1.23'],
    [0.12345, '0.123'],
    [0.0012345, '0.0012'],
    [NaN, '–'],
  ])('formats %d as %s', (n, text) => {
    expect(formatNumber(n)).toBe(text);
  });

  it('lines up columns and shows targets, verdicts and notes', () => {
    const text = textTable([
      row({ name: 'warm', target: { kind: 'at-most', value: 1.3 }, note: 'wall 3 ms' }),
      row({ name: 'ps-list', summary: null, note: 'not installed' }),
    ]);
    const lines = text.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^measurement\s+median\s+min\s+max\s+unit\s+target\s+result\s+note$/);
    expect(lines[2]).toMatch(/s: warm\s+10.0\s+8.00\s+12.0\s+ms\s+≤ 1.30\s+FAIL\s+wall 3 ms$/);
    expect(lines[3]).toMatch(/s: ps-list\s+–\s+–\s+–\s+ms\s+not installed$/);
  });

  it('writes Markdown with right-aligned figures and escaped pipes', () => {
    const md = markdownTable([row({ name: 'a|b', p95: 11 })]).split('\n');
    expect(md[0]).toBe('| measurement | median | min | max | unit | target | result | note |');
    expect(md[1]).toBe('| --- | ---: | ---: | ---: | --- | --- | --- | --- |');
    expect(md[2]).toBe('| s: a\\|b | 10.0 (p95 11.0) | 8.00 | 12.0 | ms |  |  |  |');
  });

  it('makes a row of samples whose target is checked on their p95', () => {
    const samples = [1, 2, 3, 4, 5, 6, 7, 8, 9, 100];
    const r = sampledRow('s', 'wait', 'ms', samples, { p95AtMost: 15, note: '10 trials' });
    expect(r.summary).toEqual({ median: 5.5, min: 1, max: 100, n: 10 });
    expect(r.p95).toBeCloseTo(59.05);
    expect(r.note).toBe('10 trials');
    // The median is within 15; the tail is not.
    expect(verdict(r)).toBe('FAIL');
    expect(verdict(sampledRow('s', 'wait', 'ms', samples))).toBe('');
  });

  it('makes a row that says why its samples are missing instead of its figures', () => {
    const r = sampledRow('s', 'wait', 'ms', [], { p95AtMost: 15, note: 'n trials', missing: 'no build' });
    expect(r.summary).toBeNull();
    expect(r.note).toBe('no build');
    expect(verdict(r)).toBe('n/a');
  });
});
