import { describe, expect, it } from 'vitest';
import { identityOf } from '../../main/core/actions/observe';
import { commandOf } from '../../main/core/analysis/grouping';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { readProcStat } from '../support/proc';
import { spawnGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { rec } from './record-fixture';

// The one rule, for views, incidents, hook notes and teardown outcomes alike: the command line, or `[comm]`
// (as ps writes it) when there is none to show.
describe('commandOf', () => {
  it.each([
    [['sleep', '600'], 'sleep', 'sleep 600'],
    [[], 'kworker/0:1', '[kworker/0:1]'],
    [[''], 'sleep', '[sleep]'],
    [['', ''], 'sleep', '[sleep]'],
    [['node', ''], 'node', 'node '],
  ])('%j with name %s is %s', (argv, name, command) => {
    expect(commandOf(rec({ pid: 10, argv, name }))).toBe(command);
  });

  it.skipIf(process.platform !== 'linux')(
    'names a zombie, whose command line reads empty, by its comm: in its group and in a teardown alike',
    async () => {
      // The shell becomes a sleep that never reaps its child: the child stays a zombie.
      const group = spawnGroup('sleep 0.1 & echo $! > "$DIR/pid"; exec sleep 600');
      const pid = Number(await group.ready('pid'));
      await waitFor('the child a zombie', () => readProcStat(pid)?.state === 'Z');
      const s = new LinuxSampler({ markerKeys: new Set() });
      const zombie = s.sampleSome([pid])[0]!;
      expect(zombie.argv).toEqual([]);
      expect(commandOf(zombie)).toBe('[sleep]');
      expect(identityOf(zombie).command).toBe('[sleep]');
      s.close();
    },
  );
});
