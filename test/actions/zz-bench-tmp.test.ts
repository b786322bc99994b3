import { expect, it } from 'vitest';
import { teardown } from '../../main/core/actions/teardown';
import { groupMembers } from '../support/proc';
import { spawnGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { liveMembers, newSampler, targetFor } from './group-target';

const sampler = newSampler();
for (const ignore of [false, true]) {
  it(`1000 group ignore=${ignore}`, async () => {
    const trap = ignore ? "trap '' TERM;" : '';
    const g = spawnGroup(`${trap} for i in $(seq 1000); do sleep 600 & done; echo ok > "$DIR/ready"`);
    await g.ready('ready', 60_000);
    await waitFor('1000', () => liveMembers(sampler, g.pgid).filter((r) => r.name === 'sleep').length === 1000, { timeoutMs: 60_000 });
    const target = targetFor(sampler, g.pgid);
    const t0 = Date.now();
    const result = await teardown(target, { graceMs: 1000, mode: 'group', withEscaped: false, dryRun: false, sampler });
    const t1 = Date.now();
    const term = result.signals[0]!.at;
    const lastGone = Math.max(...result.processes.map((p) => p.goneAfterMs ?? 0)) + result.startedAt;
    console.log(JSON.stringify({ ignore, total: t1 - t0, preTerm: term - t0, lastGoneAfterTerm: lastGone - term, clean: result.clean, killAfterTerm: (result.signals[1]?.at ?? term) - term, finishedAfterTerm: result.finishedAt - term, signals: result.signals.map((s) => s.signal), n: result.processes.length }));
    expect(groupMembers(g.pgid)).toEqual([]);
  }, 120_000);
}
