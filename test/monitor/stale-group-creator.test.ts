import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseAnchor } from '../../main/core/analysis/group-id';
import { readWithMissedParents } from '../../main/core/monitor/table/missed-parents';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { cleanEnv, tempDirForTest, trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

// A spawn read between fork and setsid (Node's `detached`, an agent's tool-call shell) is tracked with
// its parent's group. When its first child is read, the group it now leads must be named by it, as one
// read of the whole table would name it: the same id in the watch's events, the hook note and `ps`.
const CREATOR = `
use POSIX ();
my ($go, $out) = @ARGV;
select(undef, undef, undef, 0.02) until -e $go;
POSIX::setsid() or die "setsid: $!";
my $child = fork() // die "fork: $!";
if ($child == 0) { sleep 600; exit 0 }
open(my $f, '>', "$out.tmp") or die; print $f $child; close $f; rename("$out.tmp", $out) or die;
sleep 600;
`;

let sampler: LinuxSampler | null = null;
afterEach(() => {
  sampler?.close();
  sampler = null;
});

describe('reading newcomers', () => {
  it('reads again the group creator last read before its setsid, so the group is named by its leader', async () => {
    sampler = new LinuxSampler({ markerKeys: new Set<string>() });
    const dir = tempDirForTest('stale-creator');
    const go = join(dir, 'go');
    const childFile = join(dir, 'child');
    const creator = spawn('perl', ['-e', CREATOR, go, childFile], { stdio: 'ignore', env: cleanEnv() });
    const pid = creator.pid!;
    // After its setsid the creator leads group `pid`, removed after the test with its child.
    trackGroup(pid);
    try {
      const [before] = sampler.sampleSome([pid]);
      expect(before?.pgid).not.toBe(pid);
      const procs = new Map([[pid, { record: before!, exitedAt: null }]]);

      writeFileSync(go, '');
      await waitFor('the creator to fork its child', () => existsSync(childFile));
      const childPid = Number(readFileSync(childFile, 'utf8'));

      const read = readWithMissedParents(sampler, [childPid], procs);
      const child = read.find((r) => r.pid === childPid);
      expect(child?.pgid).toBe(pid);
      const leader = read.find((r) => r.pid === pid);
      expect(leader?.pgid, 'the creator read again in the same batch').toBe(pid);
      expect(chooseAnchor(pid, read).pid).toBe(pid);
    } finally {
      creator.kill('SIGKILL');
    }
  });
});
