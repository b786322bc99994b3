import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GroupView } from '../../shared/model';
import { groupMembers } from '../support/proc';
import { QWEN_LISTED, startQwenStandIn } from '../support/qwen-stand-in';
import { runCli } from '../support/run-cli';
import { tempDirForTest, trackGroup } from '../support/spawned-groups';
import { describeEvents, waitFor } from '../support/wait-for';
import { BUILT_CLI, startWatchJson } from '../support/watch-json';

/** The built `corral watch` without --json, its output piped (so the text view), in a group of its own. */
function startWatchText(env: Record<string, string>): { screens: () => string } {
  const child = spawn(process.execPath, [BUILT_CLI, 'watch'], {
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  trackGroup(child.pid!);
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  return { screens: () => out };
}

describe("the agent's own session list, as watch and ps show it", () => {
  it("`watch`: a group's events (--json) and its session's heading carry what the list says of the session, as `ps` does", async () => {
    const configPath = join(tempDirForTest('corral-config-'), 'config.json');
    writeFileSync(configPath, JSON.stringify({ pollIntervalMs: 200 }));
    const env = (dataDir: string) => ({
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/root',
      CORRAL_DATA_DIR: dataDir,
      CORRAL_CONFIG: configPath,
    });
    const watch = startWatchJson(env(tempDirForTest('corral-watch-')));
    const text = startWatchText(env(tempDirForTest('corral-watch-text-')));
    // The tool call's loop starts a `sleep` every 2 s: events of its group after the list was read.
    const qwen = await startQwenStandIn();
    const listed = await waitFor(
      "an event of the tool call's group with the list's fields",
      () => watch.events.find((e) => e.pgid === qwen.toolCall && e.session?.listed === 'running'),
      {
        timeoutMs: 30_000,
        explain: () =>
          `list runs ${qwen.listRuns().join(',')}; ${describeEvents(watch.events)}\nstderr: ${watch.stderr()}`,
      },
    );
    expect(qwen.listRuns().length).toBeGreaterThan(0);
    expect(listed.agent?.name).toBe('qwen-code');
    expect(listed.session).toMatchObject({
      id: QWEN_LISTED.sessionId,
      listed: 'running',
      name: QWEN_LISTED.name,
      kind: QWEN_LISTED.kind,
      agentAlive: true,
    });
    // Qwen Code's list has no status or state: none is made up.
    expect(listed.session).not.toHaveProperty('status');
    expect(listed.session).not.toHaveProperty('state');
    // The text view's heading for the session, as `ps` words it.
    await waitFor('the text view to name the session', () =>
      text
        .screens()
        .includes(`session ${QWEN_LISTED.sessionId.slice(0, 8)} "${QWEN_LISTED.name}" · agent alive`),
    );
  });

  it('`ps --json` does not wait for a list that is slow to answer: it says so, and the list is stopped by its group', async () => {
    // Slower than ps waits for a list, quicker than the 4 s it waited before.
    const qwen = await startQwenStandIn({ listDelayMs: 2500 });
    const ps = await runCli(['ps', '--json'], { env: { CORRAL_CONFIG: '/nonexistent' } });
    const [run] = qwen.listRuns();
    expect(ps.code).toBe(0);
    const groups = (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups;
    const call = groups.find((g) => g.pgid === qwen.toolCall);
    expect(call?.session?.id).toBe(QWEN_LISTED.sessionId);
    // What the slow list would have said is not there; that it did not answer is said.
    expect(call?.session).not.toHaveProperty('listed');
    expect(call?.session).not.toHaveProperty('name');
    expect(ps.stderr).toMatch(
      /corral ps: provenance: the agent's session list: .*\/qwen sessions ps --json: no answer within \d+ ms after the process table was read \(stopped\); shown as not known/,
    );
    // The list command ran, and its group (its own pid) is gone, its `sleep` too: ps left nothing running.
    expect(run).toBeGreaterThan(1);
    await waitFor("the list command's group to empty", () => groupMembers(run!).length === 0, {
      timeoutMs: 5000,
    });
  });
});
