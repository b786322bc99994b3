import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PolicyReport } from '../../main/core/policies/policy-report';
import { FakeAgent } from '../support/fake-agent';
import { readProcStat } from '../support/proc';
import { runCli } from '../support/run-cli';
import { waitFor } from '../support/wait-for';
import { tempDirForTest } from '../support/spawned-groups';

function writeConfig(config: unknown): string {
  const path = join(tempDirForTest('corral-policies-'), 'config.json');
  writeFileSync(path, JSON.stringify(config));
  return path;
}

describe('corral policies', () => {
  it('lists each rule and the groups it matches right now; a bad rule is named on stderr', async () => {
    const agent = await FakeAgent.start();
    const call = await agent.toolCall('sleep 600 & echo left');
    await call.exited();
    await waitFor('the wrapper gone', () => readProcStat(call.pid) === null);
    const config = writeConfig({
      policies: [
        { name: 'stop-orphans', match: { flags: ['orphan'], agents: ['claude-code'] }, action: 'stop' },
        { name: 'codex-only', match: { agents: ['codex'] }, action: 'notify', enabled: false },
        { name: 'ppid-one', match: { minAgeSeconds: 1 }, action: 'stop' },
      ],
    });
    const result = await runCli(['policies', '--json'], { env: { CORRAL_CONFIG: config } });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'policies[2] "ppid-one" refused: match: needs at least one of agents, flags',
    );
    const report = JSON.parse(result.stdout) as PolicyReport;
    expect(report.mode).toBe('observe');
    expect(report.rules.map((r) => r.name)).toEqual(['stop-orphans', 'codex-only']);
    // Other test files run beside this one in the same namespace and may have orphans of their own now.
    const orphans = report.rules[0]!.matches;
    const ours = orphans.find((m) => m.pgid === call.pid);
    expect(ours).toMatchObject({ agent: 'claude-code', containsAgent: false });
    expect(ours!.flags).toContain('orphan');
    expect(orphans.every((m) => m.flags.includes('orphan') && m.agent === 'claude-code')).toBe(true);
    expect(report.rules[1]).toMatchObject({ enabled: false, matches: [] });

    const text = await runCli(['policies'], { env: { CORRAL_CONFIG: config } });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Mode: observe');
    expect(text.stdout).toMatch(/stop-orphans\s+stop\s+enabled\s+[1-9]/);
    expect(text.stdout).toContain(ours!.groupId);
  });
});
