import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { GroupView, TeardownResult } from '../../shared/model';
import { CLAUDE_MARKERS } from '../support/fake-agent';
import { allPids, isAlive, readProcStat } from '../support/proc';
import { runCli } from '../support/run-cli';
import { cleanEnv, trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const ENV = { CORRAL_CONFIG: '/nonexistent' };

describe('an interactive shell on a terminal', () => {
  it("is protected even when it inherited an agent's markers, with a grammatical refusal", async () => {
    // script(1) gives bash a pseudo-terminal and a session of its own, as a terminal emulator would;
    // the markers are what a terminal opened from an agent's tmux inherits.
    const term = spawn('script', ['-qfec', 'exec bash --norc --noprofile -i', '/dev/null'], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: cleanEnv({ ...CLAUDE_MARKERS, TERM: 'dumb' }),
    });
    trackGroup(term.pid!);
    const shell = await waitFor('bash on its terminal', () =>
      allPids().find((pid) => readProcStat(pid)?.ppid === term.pid && readProcStat(pid)?.sid === pid),
    );
    trackGroup(shell);
    const ps = await runCli(['ps', '--json', '--all'], { env: ENV });
    const group = (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups.find((g) => g.pgid === shell)!;
    expect(group.agent?.name).toBe('claude-code');
    expect(group.processes.find((p) => p.pid === shell)?.tty).not.toBeNull();

    const r = await runCli(['kill', group.id, '--json'], { env: ENV });
    expect(r.code).toBe(3);
    const result = JSON.parse(r.stdout) as TeardownResult;
    expect(result.refused).toMatch(/^the group holds an interactive shell \(pid \d+ on [^)]+\): refusing/);
    expect(result.signals).toEqual([]);
    expect(isAlive(shell)).toBe(true);
  });
});
