import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { MonitorState } from '../../main/core/monitor/table/monitor-state';
import { ProcessTable } from '../../main/core/monitor/table/process-table';
import { matcherFor } from '../../main/core/analysis/signatures';
import { rec } from '../core/record-fixture';
import { CLAUDE_MARKERS } from '../support/fake-agent';

// A tool call's child read inside execve's window shows its new name with an empty argv and no markers
// (test/core/linux-sampler-exec-window.test.ts lays out what /proc shows then): nothing ties it to the
// agent. Its tool-call shell had already exited, so neither lineage. The sampler reads it whole at the
// next look; the table must then classify it again, though its name did not change.
describe("the process table and a process first read inside execve's window", () => {
  it('classifies it again once its argv and markers are read, and flags the orphan it is', () => {
    const state = new MonitorState();
    const table = new ProcessTable(state, {
      settings: () => DEFAULT_SETTINGS,
      matcher: () => matcherFor(DEFAULT_SETTINGS),
      baseMs: 0,
    });
    // pgid/sid 400: the tool call's shell, gone before any look; the child was reparented to pid 1.
    const inWindow = rec({ pid: 401, ppid: 1, pgid: 400, sid: 400, name: 'sleep', argv: [], markers: {} });
    table.ingest([inWindow], null, new Set([401]), 1_000, true);
    expect(state.procs.get(401)?.attribution).toBeNull();
    expect(state.takeEvents()).toEqual([]);

    const whole = { ...inWindow, argv: ['sleep', '600'], markers: { ...CLAUDE_MARKERS } };
    table.ingest([whole], null, new Set([401]), 2_000, true);
    expect(state.procs.get(401)?.attribution?.agent).toBe('claude-code');
    const events = state.takeEvents();
    expect(events.map((e) => e.type)).toContain('orphaned');
    expect(events.find((e) => e.type === 'orphaned')).toMatchObject({ pid: 401, pgid: 400 });
  });

  it('leaves a process whose argv stays empty (a kernel thread, a zombie) unclassified, without reclassifying it each look', () => {
    const state = new MonitorState();
    let attributions = 0;
    const matcher = matcherFor(DEFAULT_SETTINGS);
    const counting = new Proxy(matcher, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (key === 'agentOf' && typeof value === 'function')
          return (...args: unknown[]) => {
            attributions++;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        return value;
      },
    });
    const table = new ProcessTable(state, {
      settings: () => DEFAULT_SETTINGS,
      matcher: () => counting,
      baseMs: 0,
    });
    const kthread = rec({ pid: 77, ppid: 2, pgid: 0, sid: 0, name: 'kworker/0:1', argv: [] });
    table.ingest([kthread], null, new Set([77]), 1_000, true);
    const afterFirst = attributions;
    for (let at = 2_000; at < 6_000; at += 1_000)
      table.ingest([{ ...kthread }], null, new Set([77]), at, true);
    expect(attributions).toBe(afterFirst);
    expect(state.procs.get(77)?.attribution).toBeNull();
  });
});
