import { execFileSync } from 'node:child_process';
import { readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { Monitor } from '../../main/core/monitor/monitor';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { matcherFor } from '../../main/core/analysis/signatures';
import { FakeAgent } from '../support/fake-agent';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs';
import { waitFor } from '../support/wait-for';

const tempDir = tempDirsRemovedAfterEach();
const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.splice(0)) c();
});

function linkOf(pid: number, fd: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/fd/${fd}`);
  } catch {
    return null;
  }
}

/**
 * A monitor over the real table, polled by hand on a clock that moves 1 s a poll, counting how often it
 * lists descriptors to find held pipes.
 */
function monitorCountingLookups() {
  const matcher = matcherFor(DEFAULT_SETTINGS);
  const sampler = new LinuxSampler({ markerKeys: matcher.markerKeys });
  cleanup.push(() => sampler.close());
  let clock = Date.now();
  const lookups = { count: 0 };
  const monitor = new Monitor({
    sampler,
    matcher,
    settings: DEFAULT_SETTINGS,
    findHeldPipes: (query) => {
      lookups.count++;
      return sampler.findHeldPipes(query);
    },
    heldPipeLinks: (pipe) => sampler.heldPipeLinks(pipe),
    now: () => clock,
  });
  const poll = (times = 1): void => {
    for (let i = 0; i < times; i++) {
      clock += 1000;
      monitor.poll();
    }
  };
  const heldPipeOf = (pid: number) =>
    [...monitor.trackedProcesses()].find((p) => p.record.pid === pid && p.exitedAt === null)?.heldPipe;
  return { monitor, poll, lookups, heldPipeOf };
}

describe('a held pipe, once found', () => {
  it('is rechecked through its two descriptors while it stands, followed from stdout to stderr, and dropped once both let go', async () => {
    const dir = tempDir('corral-held-recheck-');
    const outGo = join(dir, 'out-go');
    const errGo = join(dir, 'err-go');
    const done = join(dir, 'done');
    execFileSync('mkfifo', [outGo, errGo, done]);
    const { poll, lookups, heldPipeOf } = monitorCountingLookups();
    poll();
    const agent = await FakeAgent.start();
    // The background shell keeps the tool call's stdout and stderr open (blocked in a builtin read, so
    // no child of its own comes and goes), lets go of one when told, then the other, each wait on a
    // FIFO of its own: reopened at once, a FIFO could still have the test as its writer, whose close
    // would end that read and the holder with it.
    const call = await agent.toolCall(
      `bash -c 'read x < ${outGo}; exec >/dev/null; read x < ${errGo}; exec 2>/dev/null; read y < ${done}' & echo $! > ${dir}/holder; printf 'hi\\n'`,
    );
    await call.exited();
    const holder = Number(
      await waitFor('the holder', () => readFileSync(join(dir, 'holder'), 'utf8').trim() || undefined),
    );
    await waitFor('the holder to hold the output', () => linkOf(holder, 1)?.startsWith('socket:'));
    await waitFor('the held pipe to be found', () => {
      poll();
      return heldPipeOf(holder) ?? undefined;
    });

    // Past the 10 s after the wrapper exited, in which the group is listed every poll.
    poll(11);
    lookups.count = 0;
    poll(90);
    // Three rechecks (one every 30 polls), each answered by the holder's and the reader's descriptors.
    expect(lookups.count).toBe(0);
    expect(heldPipeOf(holder)).toMatch(/^socket:\[\d+\] fd 1 of pid \d+/);

    writeFileSync(outGo, 'go\n');
    await waitFor('the holder to let go of its stdout', () => linkOf(holder, 1) === '/dev/null');
    poll(30);
    // stdout moved, so the group was listed whole: still held, through stderr now.
    expect(lookups.count).toBeGreaterThan(0);
    expect(heldPipeOf(holder)).toMatch(/^socket:\[\d+\] fd 2 of pid \d+/);

    writeFileSync(errGo, 'go\n');
    await waitFor('the holder to let go of its stderr', () => linkOf(holder, 2) === '/dev/null');
    lookups.count = 0;
    poll(30);
    expect(lookups.count).toBeGreaterThan(0);
    expect(heldPipeOf(holder)).toBeNull();
    writeFileSync(done, 'done\n');
  });
});
