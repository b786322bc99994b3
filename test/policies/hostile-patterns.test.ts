import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PolicyReport } from '../../main/core/policies/policy-report';
import { FakeAgent } from '../support/fake-agent';
import { runCli } from '../support/run-cli';
import { startHarness, type Harness } from '../support/service-harness';
import { waitFor } from '../support/wait-for';
import { tempDirForTest } from '../support/spawned-groups';

// Patterns a backtracking engine takes exponential (or huge polynomial) time on, over the 80-character
// command lines below, each a leftover whose whole argv is that one word.
const NAMES = {
  aBang: `${'a'.repeat(79)}!`,
  digitsBang: `${'1'.repeat(79)}!`,
  allA: 'a'.repeat(80),
  aThenB: `${'a'.repeat(79)}b`,
};
const PATTERNS = {
  alternation: '^(a|aa)+$',
  overlappingClasses: '(\\w|\\d)+$',
  sameTwice: '(a|a)*b',
  nestedStars: '(.*a){20}',
};
// What each pattern matches, as any regex engine answers it (when it answers).
const EXPECTED: Record<keyof typeof PATTERNS, Array<keyof typeof NAMES>> = {
  alternation: ['allA'],
  overlappingClasses: ['allA', 'aThenB'],
  sameTwice: ['aThenB'],
  nestedStars: ['aBang', 'allA', 'aThenB'],
};

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.stop();
  harness = null;
});

/** Starts one leftover per name under a fake agent; returns their pgids by name. */
async function leftovers(agent: FakeAgent): Promise<Record<keyof typeof NAMES, number>> {
  const pgids = {} as Record<keyof typeof NAMES, number>;
  const fifos = tempDirForTest('corral-fifos-');
  for (const [key, name] of Object.entries(NAMES) as Array<[keyof typeof NAMES, string]>) {
    // cat on a FIFO it holds open for writing itself blocks forever: one process, argv [name].
    const call = await agent.toolCall(
      `f=$(mktemp -u '${fifos}/fifo.XXXXXX') && mkfifo "$f" && exec -a ${name} cat <>"$f"`,
    );
    pgids[key] = call.pid;
  }
  for (const [key, pgid] of Object.entries(pgids) as Array<[keyof typeof NAMES, number]>)
    await waitFor(`leftover ${key} exec'd as its name`, () => cmdline(pgid) === `${NAMES[key]}\0`);
  return pgids;
}

const rules = Object.entries(PATTERNS).map(([name, pattern]) => ({
  name,
  match: { agents: ['claude-code'], commandPatterns: [pattern] },
  action: 'notify' as const,
}));

const sorted = (byRule: Record<string, string[]>) =>
  Object.fromEntries(Object.entries(byRule).map(([k, v]) => [k, [...v].sort()]));

function cmdline(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1');
  } catch {
    return null;
  }
}

function writeConfig(config: unknown): string {
  const path = join(tempDirForTest('corral-policies-'), 'config.json');
  writeFileSync(path, JSON.stringify(config));
  return path;
}

describe('policy commandPatterns a backtracking engine stalls on', () => {
  it('corral policies answers each with its true matches', async () => {
    const pgids = await leftovers(await FakeAgent.start());
    const config = writeConfig({ policies: rules });
    const result = await runCli(['policies', '--json'], {
      env: { CORRAL_CONFIG: config },
      timeoutMs: 45_000,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as PolicyReport;
    const ours = new Map(Object.entries(pgids).map(([key, pgid]) => [pgid, key]));
    const matched = Object.fromEntries(
      report.rules.map((r) => [
        r.name,
        r.matches
          .map((m) => ours.get(m.pgid))
          .filter((k) => k !== undefined)
          .sort(),
      ]),
    );
    expect(matched).toEqual(sorted(EXPECTED));
  });

  it('watch records each true match, and still sees a leak that comes after', async () => {
    const agent = await FakeAgent.start();
    const pgids = await leftovers(agent);
    // Started once the leftovers exec'd: their wrappers' command lines (before exec) are no match to test.
    harness = startHarness({ policies: rules });
    const h = harness;
    const ours = new Map(Object.entries(pgids).map(([key, pgid]) => [pgid, key]));
    // Every leftover is seen (a group-started each) and a later orphan is still flagged.
    const later = await agent.toolCall('sleep 600 & echo left');
    await later.exited();
    await h.next('orphaned', (e) => e.pgid === later.pid);
    const matches = () => {
      const byRule: Record<string, string[]> = Object.fromEntries(rules.map((r) => [r.name, []]));
      for (const e of h.events) {
        const key = ours.get(e.pgid);
        if (e.type === 'policy-matched' && key) byRule[String(e.detail?.policy)]!.push(key);
      }
      return sorted(byRule);
    };
    // Policies run after each poll; three polls after the orphan, every match was recorded.
    let polls = 0;
    const unsubscribe = h.running.monitor.onPoll(() => polls++);
    await waitFor('three more polls', () => polls >= 3);
    unsubscribe();
    expect(matches()).toEqual(sorted(EXPECTED));
  });
});
