import { describe, expect, it } from 'vitest';
import { eventWords } from '../../main/cli/event-words';
import { renderGroups } from '../../main/cli/group-table';
import { withRecordedStorms } from '../../main/cli/recorded-storms';
import type { Incident, SpawnStormFacts } from '../../shared/model';
import { makeGroup } from '../transport/fake-corral-service';

const plain = { colour: false, width: Infinity, height: Infinity };
const facts: SpawnStormFacts = {
  reason: 'repeated-command',
  birthsPerMinute: 1646,
  repeatsPerMinute: 538,
  peakBirthsPerMinute: 1646,
  members: 2,
  peakMembers: 2,
  births: 91,
  unseenBirths: 32,
  repeated: [{ command: '/bin/true', count: 60 }],
};

describe('spawn-storm in the CLI', () => {
  it('ps says the rate first, in words, and the flag as "spawn storm"', () => {
    const group = makeGroup({ flags: ['spawn-storm'], spawnStorm: facts });
    const [, , row] = renderGroups([group], group.startedAt, plain);
    expect(row).toContain('spawn storm');
    expect(row).toContain(
      'spawn storm  starts /bin/true 538 times a minute (1,646 processes a minute in all):',
    );
  });

  it("a one-shot ps shows the storm the watching Corral recorded on the group's open incident", () => {
    const group = makeGroup({ flags: [] });
    const incident = { groupId: group.id, end: 'open', spawnStorm: facts } as Incident;
    const [shown] = withRecordedStorms([group], [incident]);
    expect(shown!.flags).toEqual(['spawn-storm']);
    expect(shown!.spawnStorm).toBe(facts);
    // Once it calmed down, or on a closed incident, nothing is claimed.
    const calmed = { ...incident, spawnStorm: { ...facts, endedAt: 5 } };
    expect(withRecordedStorms([group], [calmed])[0]!.flags).toEqual([]);
    expect(withRecordedStorms([group], [{ ...incident, end: 'exited' }])[0]!.flags).toEqual([]);
  });

  it('watch words the events', () => {
    const base = { at: 0, groupId: 'g', pid: 1, pgid: 1 };
    expect(
      eventWords({
        ...base,
        type: 'spawn-storm',
        detail: { reason: 'birth-rate', birthsPerMinute: 9000, repeatedCommand: 'sh -c exit 1' },
      }),
    ).toBe('starts 9000 processes a minute, mostly sh -c exit 1');
    expect(
      eventWords({ ...base, type: 'spawn-storm', detail: { reason: 'member-growth', members: 250 } }),
    ).toBe('has 250 processes alive and still growing');
    expect(eventWords({ ...base, type: 'spawn-storm-cleared', detail: { birthsPerMinute: 12 } })).toBe(
      'starts processes slowly again (12 a minute)',
    );
  });
});
