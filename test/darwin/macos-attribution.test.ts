import { describe, expect, it } from 'vitest';
import { attribute } from '../../main/core/analysis/attribution';
import { AgentMatcher } from '../../main/core/analysis/agent-matcher';
import { BUILTIN_SIGNATURES } from '../../main/core/analysis/signatures';
import { LineageMemory } from '../../main/core/analysis/lineage-memory';
import { DarwinSampler } from '../../main/core/sampling/darwin/darwin-sampler';
import { bsdInfo, kinfoProc, procArgs2, shortBsdInfo, taskInfo } from './darwin-buffers';
import { FakeLibSystem } from './fake-libsystem';
import { recordedLines } from './recorded-ps';

// On macOS the environment of SIP-protected binaries (/bin/zsh, /bin/sleep) is hidden, so Claude Code's
// tool calls carry no CLAUDECODE marker there: lineage and the wrapper's command line must attribute them.
const matcher = new AgentMatcher(BUILTIN_SIGNATURES);

interface Row {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  ucomm: string;
  environ: boolean;
  command: string;
}

function rows(): Row[] {
  return recordedLines('ps-claude-code-macos.txt').map((line) => {
    const m = /^(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+\s+(\S+)\s+(yes|no)\s+(.*)$/.exec(line);
    if (!m) throw new Error(`not a table line: ${line}`);
    return {
      pid: Number(m[1]),
      ppid: Number(m[2]),
      pgid: Number(m[3]),
      sid: Number(m[4]),
      ucomm: m[5]!,
      environ: m[6] === 'yes',
      command: m[7]!,
    };
  });
}

/** Splits the recorded command as the kernel holds it: the shell wrapper's script is one argument. */
function argvOf(command: string): string[] {
  const c = /^(\S+) -c (.*)$/.exec(command);
  return c ? [c[1]!, '-c', c[2]!] : command.split(' ');
}

/** The table through the sampler, the stand-in answering as xnu would (environment hidden where SIP hides it). */
function sample(table: Row[], reparent: Map<number, number> = new Map()) {
  const lib = new FakeLibSystem();
  for (const r of table) {
    const fields = {
      status: 2,
      pid: r.pid,
      ppid: reparent.get(r.pid) ?? r.ppid,
      uid: 501,
      comm: r.ucomm,
      name: r.ucomm,
      pgid: r.pgid,
      startSec: 1764500000 + (r.pid % 1000),
      startUsec: 0,
    };
    const bsd = bsdInfo(fields);
    const argv = argvOf(r.command);
    lib.processes.set(r.pid, {
      taskAllInfo: Buffer.concat([
        bsd,
        taskInfo({ residentBytes: 1 << 20, userTicks: 0, systemTicks: 0, runningThreads: 0 }),
      ]),
      bsdInfo: bsd,
      shortBsdInfo: shortBsdInfo(fields),
      kinfoProc: kinfoProc({ pid: r.pid, stat: 2, startSec: fields.startSec, startUsec: 0 }),
      procArgs2: procArgs2(argv[0]!, argv, r.environ ? ['HOME=/Users/me', 'CLAUDECODE=1'] : []),
      sid: r.sid,
    });
  }
  return new DarwinSampler({ markerKeys: matcher.markerKeys }, lib).sampleSome(table.map((r) => r.pid));
}

describe('attribution on a recorded macOS Claude Code table', () => {
  it('reads the SIP-protected wrapper and its children as environReadable: false', () => {
    const records = sample(rows());
    const byPid = new Map(records.map((r) => [r.pid, r]));
    expect(byPid.get(63518)).toMatchObject({ name: 'zsh', environReadable: false, markers: {} });
    expect(byPid.get(63521)).toMatchObject({ name: 'sleep', environReadable: false });
    expect(byPid.get(63001)).toMatchObject({ name: '2.1.220', argv: ['claude'] });
  });

  it('recognises the native binary (ucomm is its version) and node-based agents (ucomm node)', () => {
    const attributions = attribute(sample(rows()), matcher);
    expect(attributions.get(63001)).toMatchObject({ agent: 'claude-code', isAgent: true });
    expect(attributions.get(64010)).toMatchObject({ agent: 'gemini-cli', isAgent: true });
  });

  it('recognises the native binary started by its real path, where neither comm nor argv[0] says claude', () => {
    expect(
      matcher.agentOf({
        name: '2.1.220',
        argv: ['/Users/me/.local/share/claude/versions/2.1.220', '--resume'],
      }),
    ).toBe('claude-code');
  });

  it('attributes the tool call through ancestry while Claude Code lives, without any marker', () => {
    const attributions = attribute(sample(rows()), matcher);
    for (const pid of [63518, 63520, 63521])
      expect(attributions.get(pid)).toMatchObject({ agent: 'claude-code', agentPid: 63001, isAgent: false });
  });

  it('keeps the escaped wrapper (PPID 1, seed 000) attributed by its command line and lineage', () => {
    const escaped = new Map([
      [63518, 1],
      [63520, 63518],
    ]);
    const table = rows().filter((r) => r.pid !== 63001 && r.pid !== 63521);
    const records = sample(table, escaped);
    const byCommand = attribute(records, matcher);
    expect(byCommand.get(63518)).toMatchObject({ agent: 'claude-code', source: 'command' });
    expect(byCommand.get(63520)).toMatchObject({ agent: 'claude-code' });

    // With what Corral remembered while the parent lived, the agent's pid is kept as well.
    const memory = new LineageMemory();
    const live = sample(rows());
    const liveAttributions = attribute(live, matcher);
    for (const r of live) {
      const a = liveAttributions.get(r.pid);
      if (a && !a.isAgent)
        memory.remember(
          `${r.pid}@${r.startKey}`,
          {
            agent: a.agent,
            agentPid: a.agentPid,
            originPgid: r.pgid,
            originSid: r.sid,
            originalPpid: r.ppid,
            ancestry: [r.pid, r.ppid],
            firstSeenAt: 0,
          },
          true,
        );
    }
    const byLineage = attribute(records, matcher, memory);
    expect(byLineage.get(63518)).toMatchObject({ agent: 'claude-code', agentPid: 63001, source: 'lineage' });
  });
});
