import { closeSync, constants, openSync, readFileSync, writeSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { teardown } from '../../main/core/actions/stop-and-record';
import type { ProcessSampler } from '../../main/core/sampling/process-sampler';
import type { TeardownResult } from '../../shared/model';
import { isAlive, readProcStat } from '../support/proc';
import { spawnGroup, trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { newSampler, targetFor } from './group-target';

const real = newSampler();

/** Sleeps the thread briefly: the identity change must be complete before the sampler read returns. */
const pause = (ms: number): void => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms) as never;

/**
 * The real sampler, with one hook: the first read at or after `armedAt` first runs `change`. Teardown
 * reads members through `sampleSome` for any sampler but the Linux one, so this is the read that
 * re-proves the group just before the SIGKILL. The processes and the change are real; only the moment
 * is chosen, so the change lands after the grace's last look and before the re-check, every time.
 */
function samplerThatChangesAt(change: () => void): { sampler: ProcessSampler; arm: (at: number) => void } {
  let armedAt: number | null = null;
  let done = false;
  const sampler: ProcessSampler = {
    platform: real.platform,
    sampleAll: () => real.sampleAll(),
    listPids: () => real.listPids(),
    sampleSome: (pids) => {
      if (!done && armedAt !== null && Date.now() >= armedAt) {
        done = true;
        change();
      }
      return real.sampleSome(pids);
    },
  };
  return { sampler, arm: (at) => (armedAt ??= at) };
}

function outcomeOf(result: TeardownResult, pid: number) {
  const found = result.processes.find((p) => p.pid === pid);
  if (!found) throw new Error(`no outcome for ${pid} in ${JSON.stringify(result.processes)}`);
  return found;
}

describe('the re-check before SIGKILL (phases.ts proveNow)', () => {
  it('sends no SIGKILL when every known member left the PGID during the grace, and leaves the process now holding it alone', async () => {
    // The member ignores SIGTERM, waits for a line on the fifo, then forks a newcomer into the group and
    // leaves it (setsid): the PGID number stays taken, by a process Corral never proved to be the group's.
    const g = spawnGroup(
      `mkfifo "$DIR/go"; (trap '' TERM; echo $BASHPID > "$DIR/member"; read -r _ < "$DIR/go"; ` +
        `sleep 600 & echo $! > "$DIR/newcomer"; exec setsid sleep 600) & echo ok > "$DIR/ready"`,
    );
    const member = Number(await g.ready('member'));
    await g.ready('ready');
    await waitFor('the leader to exit', () => !isAlive(g.pid));
    trackGroup(member); // its own group once it left

    let newcomer = 0;
    const { sampler, arm } = samplerThatChangesAt(() => {
      // Non-blocking: with no reader left (the member is gone), this throws instead of hanging.
      const fifo = openSync(`${g.dir}/go`, constants.O_WRONLY | constants.O_NONBLOCK);
      writeSync(fifo, 'go\n');
      closeSync(fifo);
      const until = Date.now() + 10_000;
      while (readProcStat(member)?.pgid === g.pgid) {
        if (Date.now() > until) throw new Error(`member ${member} did not leave PGID ${g.pgid}`);
        pause(5);
      }
      newcomer = Number(readFileSync(`${g.dir}/newcomer`, 'utf8'));
    });
    const target = targetFor(real, g.pgid);
    expect(target.members.map((m) => m.pid)).toEqual([member]);

    const graceMs = 1000;
    const result = await teardown(target, {
      graceMs,
      // One look just after the SIGTERM, then none until the grace ends: the re-check is the next read.
      pollMs: graceMs,
      mode: 'group',
      withEscaped: false,
      dryRun: false,
      sampler,
      onProgress: (partial) => {
        const term = partial.signals.find((s) => s.signal === 'SIGTERM');
        if (term) arm(term.at + graceMs);
      },
    });

    expect(newcomer).toBeGreaterThan(1);
    expect(result.signals.map((s) => [s.signal, s.target, s.result])).toEqual([
      ['SIGTERM', `-${g.pgid}`, 'sent'],
      ['SIGCONT', `-${g.pgid}`, 'sent'],
    ]);
    expect(outcomeOf(result, member).outcome).toBe('escaped-group');
    expect(outcomeOf(result, newcomer)).toMatchObject({
      outcome: 'still-alive',
      reason: expect.stringMatching(/joined it after Corral last proved/),
    });
    expect(result.clean).toBe(false);
    // Both live on: the member in its own session, the newcomer in the PGID nobody proved.
    expect(readProcStat(member)).toMatchObject({ pgid: member, sid: member });
    expect(isAlive(newcomer)).toBe(true);
    expect(readProcStat(newcomer)?.pgid).toBe(g.pgid);
  });
});
