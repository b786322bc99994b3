import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentMatcher } from '../../main/core/analysis/agent-matcher';
import { attribute } from '../../main/core/analysis/attribution';
import { buildGroups } from '../../main/core/analysis/grouping';
import { BUILTIN_SIGNATURES, PROVENANCE_ENV } from '../../main/core/analysis/signatures';
import {
  PROCESS_REFRESH_MS,
  Provenance,
  QUIET_PROCESS_REFRESH_MS,
} from '../../main/core/provenance/add-provenance';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { cleanEnv, removeDir, spawnGroup } from '../support/spawned-groups';

const matcher = new AgentMatcher(BUILTIN_SIGNATURES, PROVENANCE_ENV);

/** The sampler's provenance reads, each non-empty cwd read's pids pushed onto `reads`; run marks optional. */
function countingCwdReads(sampler: LinuxSampler, reads: number[][], { runMarks = true } = {}) {
  return {
    platform: 'linux' as const,
    readCwd: (pids: Iterable<number>) => {
      const list = [...pids];
      if (list.length > 0) reads.push(list);
      return sampler.readCwd(list);
    },
    listeningPorts: (pids: Iterable<number>) => sampler.listeningPorts(pids),
    ...(runMarks ? { runMark: (pid: number) => sampler.runMark(pid) } : {}),
  };
}

describe("a quiet process's cwd and ports, on a real process", () => {
  it('are not read again while its run mark stands, and are once it ran', async () => {
    // The shell blocks opening a FIFO (it does not run) until the test writes to it, then moves, and
    // blocks for good on a second FIFO nobody opens for writing. (Not the first FIFO again: opened while
    // the test's write was still open, it would read the end of that write and the shell would exit.)
    const g = spawnGroup(
      [
        'mkdir "$DIR/a" "$DIR/b" && mkfifo "$DIR/go" "$DIR/stay" && cd "$DIR/a"',
        'echo ok > "$DIR/one"',
        'read -r line < "$DIR/go"',
        'cd "$DIR/b" && echo ok > "$DIR/two"',
        'read -r line < "$DIR/stay"',
      ].join('\n'),
      { env: cleanEnv({ CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: 'quiet-1' }) },
    );
    const sampler = new LinuxSampler({ markerKeys: new Set(matcher.markerKeys) });
    try {
      await g.ready('one');
      const dir = realpathSync(g.dir);
      const reads: number[][] = [];
      const counting = countingCwdReads(sampler, reads);
      let now = 0;
      const provenance = new Provenance({ transcripts: false }, PROCESS_REFRESH_MS, () => now);
      const cwdNow = (): string | null | undefined => {
        // Its parent too, as the monitor reads it: the probe speaks only for a child whose parent stands.
        const records = sampler.sampleSome([process.pid, g.pid]).filter((r) => r.pid === g.pid);
        const attributions = attribute(records, matcher);
        const groups = buildGroups(records, attributions, () => ({ cpuPercent: null, flags: [] }));
        provenance.addTo(groups, { records, attributions, matcher, sampler: counting });
        return groups.find((x) => x.pgid === g.pgid)?.processes[0]?.cwd;
      };

      expect(cwdNow()).toBe(join(dir, 'a'));
      // The second read goes through the schedstat probe, which gives the record its run mark; the cwd was
      // read before the process had one, so it is read again at the refresh interval, under the mark.
      cwdNow();
      const mark = sampler.runMark(g.pid);
      expect(mark).not.toBeNull();
      now += PROCESS_REFRESH_MS;
      cwdNow();
      expect(reads).toEqual([[g.pid], [g.pid]]);

      now += PROCESS_REFRESH_MS;
      expect(cwdNow()).toBe(join(dir, 'a'));
      expect(sampler.runMark(g.pid)).toBe(mark);
      expect(reads).toEqual([[g.pid], [g.pid]]); // quiet: past the refresh interval, not read again

      writeFileSync(join(g.dir, 'go'), 'next\n');
      await g.ready('two');
      now += 1;
      expect(cwdNow()).toBe(join(dir, 'b')); // it ran (its mark moved): read again at the refresh interval
      expect(sampler.runMark(g.pid)).not.toBe(mark);
      expect(reads).toEqual([[g.pid], [g.pid], [g.pid]]);

      // However quiet, read again after QUIET_PROCESS_REFRESH_MS.
      cwdNow();
      now += QUIET_PROCESS_REFRESH_MS;
      cwdNow();
      expect(reads).toEqual([[g.pid], [g.pid], [g.pid], [g.pid]]);
    } finally {
      sampler.close();
      removeDir(g.dir);
    }
  });
});

describe('cwd and ports read for some groups only', () => {
  it('stay known for the groups not asked about this time, while their processes live', async () => {
    const env = cleanEnv({ CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: 'subset-1' });
    const a = spawnGroup('cd "$DIR" && echo ok > "$DIR/up" && sleep 600', { env });
    const b = spawnGroup('cd "$DIR" && echo ok > "$DIR/up" && sleep 600', { env });
    const sampler = new LinuxSampler({ markerKeys: new Set(matcher.markerKeys) });
    try {
      await a.ready('up');
      await b.ready('up');
      const reads: number[][] = [];
      const counting = countingCwdReads(sampler, reads, { runMarks: false });
      const provenance = new Provenance({ transcripts: false }, PROCESS_REFRESH_MS, () => 0);
      const records = sampler.sampleSome([a.pid, b.pid]);
      const attributions = attribute(records, matcher);
      const viewOf = (pgid: number) =>
        buildGroups(records, attributions, () => ({ cpuPercent: null, flags: [] })).filter(
          (g) => g.pgid === pgid,
        );
      const decorate = (pgid: number): string | null | undefined => {
        const groups = viewOf(pgid);
        provenance.addTo(groups, { records, attributions, matcher, sampler: counting });
        return groups[0]?.processes[0]?.cwd;
      };

      expect(decorate(a.pgid)).toBe(realpathSync(a.dir));
      expect(decorate(b.pgid)).toBe(realpathSync(b.dir));
      expect(decorate(a.pgid)).toBe(realpathSync(a.dir));
      expect(reads).toEqual([[a.pid], [b.pid]]);

      // A process gone from the records is forgotten: the same pid is read afresh if it is asked for again.
      const onlyB = records.filter((r) => r.pid === b.pid);
      provenance.addTo(viewOf(b.pgid), { records: onlyB, attributions, matcher, sampler: counting });
      expect(decorate(a.pgid)).toBe(realpathSync(a.dir));
      expect(reads).toEqual([[a.pid], [b.pid], [a.pid]]);
    } finally {
      sampler.close();
      removeDir(a.dir);
      removeDir(b.dir);
    }
  });
});
