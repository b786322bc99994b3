import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeHeldPipe } from '../../main/core/analysis/held-pipes/describe-held-pipe';
import { findHeldPipes } from '../../main/core/sampling/linux/find-held-pipes';
import { commandOf } from '../../main/core/analysis/grouping';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { FakeAgent } from '../support/fake-agent';
import { groupMembers, isAlive } from '../support/proc';
import { spawnGroup, trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

/** Live members of the tool call's group (pgid = wrapper pid) once the wrapper is gone. */
function survivors(pgid: number): number[] {
  return groupMembers(pgid).map((s) => s.pid);
}

/** A process's command as the monitor names it in a held pipe's description (held-pipe-check.ts). */
function commandOfPid(pid: number): string | null {
  const s = new LinuxSampler({ markerKeys: new Set() });
  const r = s.readOne(pid);
  s.close();
  return r ? commandOf(r) : null;
}

function comm(pid: number): string {
  return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
}

describe('findHeldPipes on a Node-based agent (seed 2: stdout is a socketpair)', () => {
  it('reports the background sleep holding the tool call output until its group is removed', async () => {
    const agent = await FakeAgent.start();
    const call = await agent.toolCall("sleep 30 & printf 'hi\\n'");
    await call.exited();
    const [sleepPid] = await waitFor('the surviving sleep', () => {
      const pids = survivors(call.pid);
      return pids.length === 1 && comm(pids[0]!) === 'sleep' ? pids : undefined;
    });

    const held = await waitFor('the held output', () => {
      const found = findHeldPipes({ readerPids: [agent.pid], holderPids: [sleepPid!] });
      return found.length === 2 ? found : undefined;
    });
    expect(held.map((h) => [h.holderPid, h.holderFd, h.kind, h.readerPid])).toEqual([
      [sleepPid, 1, 'socket', agent.pid],
      [sleepPid, 2, 'socket', agent.pid],
    ]);
    expect(describeHeldPipe(held[0]!, commandOfPid)).toMatch(
      new RegExp(
        `^socket:\\[\\d+\\] fd 1 of pid ${sleepPid} \\(sleep 30\\) → read by pid ${agent.pid} \\(claude\\)$`,
      ),
    );

    process.kill(-call.pid, 'SIGKILL');
    await waitFor('the group to empty', () => survivors(call.pid).length === 0);
    // The agent finally sees EOF: the pipe was held by nothing else.
    expect((await call.closed()).stdout).toBe('hi\n');
    // Asked about the very sleep that held it: it is gone, so nothing holds the output any more.
    expect(findHeldPipes({ readerPids: [agent.pid], holderPids: [sleepPid!] })).toEqual([]);
  });

  it('reports nothing for a background child that redirected its output', async () => {
    const agent = await FakeAgent.start();
    const call = await agent.toolCall("sleep 30 >/dev/null 2>&1 & printf 'hi\\n'");
    await call.exited();
    expect((await call.closed()).stdout).toBe('hi\n');
    const pids = await waitFor('the surviving sleep', () => {
      const found = survivors(call.pid);
      return found.length === 1 && comm(found[0]!) === 'sleep' ? found : undefined;
    });
    expect(findHeldPipes({ readerPids: [agent.pid], holderPids: pids })).toEqual([]);
  });
});

describe('findHeldPipes on an agent that reads through a real pipe', () => {
  // The agent is bash reading a tool call through command substitution: an anonymous pipe, read by
  // the agent's own process. The wrapper is a session leader (setsid), as agents run tool calls.
  const agentScript = (cmd: string): string =>
    `out=$(setsid bash -c 'echo $$ > "$DIR/wrapper"; ${cmd}'); echo "$out" > "$DIR/done"`;

  it('reports the sleep holding the write end of the pipe read by the agent, until it is killed', async () => {
    const agent = spawnGroup(agentScript('sleep 30 & echo hi'), { argv0: 'claude' });
    const wrapperPid = Number(await agent.ready('wrapper'));
    trackGroup(wrapperPid);
    await waitFor('the wrapper to exit', () => !isAlive(wrapperPid));
    const [sleepPid] = await waitFor('the surviving sleep', () => {
      const pids = survivors(wrapperPid);
      return pids.length === 1 && comm(pids[0]!) === 'sleep' ? pids : undefined;
    });

    const held = await waitFor('the held pipe', () => {
      const found = findHeldPipes({ readerPids: [agent.pid], holderPids: [sleepPid!] });
      return found.length === 1 ? found : undefined;
    });
    expect(held).toEqual([
      {
        holderPid: sleepPid,
        holderFd: 1,
        kind: 'pipe',
        inode: expect.any(Number),
        readerPid: agent.pid,
        readerFd: expect.any(Number),
      },
    ]);
    expect(describeHeldPipe(held[0]!, commandOfPid)).toBe(
      `pipe:[${held[0]!.inode}] fd 1 of pid ${sleepPid} (sleep 30) → read by pid ${agent.pid} (${commandOfPid(agent.pid)})`,
    );

    process.kill(-wrapperPid, 'SIGKILL');
    await waitFor('the group to empty', () => survivors(wrapperPid).length === 0);
    expect(await agent.ready('done')).toBe('hi');
    expect(findHeldPipes({ readerPids: [agent.pid], holderPids: [sleepPid!] })).toEqual([]);
  });

  it('reports the pipe read by a still-running wrapper when it is passed as a reader', async () => {
    // The wrapper waits on its own command substitution, which a background sleep holds.
    const agent = spawnGroup(agentScript(`x=$( (sleep 30 &) ; echo inner); echo "$x"`));
    const wrapperPid = Number(await agent.ready('wrapper'));
    trackGroup(wrapperPid);
    const sleepPid = await waitFor('the sleep', () =>
      survivors(wrapperPid).find((pid) => comm(pid) === 'sleep'),
    );
    const held = await waitFor('the held pipe', () => {
      const found = findHeldPipes({ readerPids: [agent.pid, wrapperPid], holderPids: [sleepPid] });
      return found.find((h) => h.readerPid === wrapperPid);
    });
    expect(held).toMatchObject({ holderPid: sleepPid, holderFd: 1, kind: 'pipe' });
    expect(isAlive(wrapperPid)).toBe(true);
  });
});
