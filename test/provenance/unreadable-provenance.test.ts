// Provenance is decoration: a file an agent's environment points at that cannot be read (a FIFO here)
// leaves what it would tell not known, says so once however often it is looked at again, and a failure
// anywhere in a pass never takes a group away. Real processes and real files; the clock is the test's.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GroupView } from '../../shared/model';
import { AgentMatcher } from '../../main/core/analysis/agent-matcher';
import { attribute } from '../../main/core/analysis/attribution';
import { buildGroups } from '../../main/core/analysis/grouping';
import { BUILTIN_SIGNATURES, PROVENANCE_ENV } from '../../main/core/analysis/signatures';
import { PROCESS_REFRESH_MS, Provenance } from '../../main/core/provenance/add-provenance';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { FakeAgent } from '../support/fake-agent';
import { removeDir } from '../support/spawned-groups';

const matcher = new AgentMatcher(BUILTIN_SIGNATURES, PROVENANCE_ENV);
const sampler = new LinuxSampler({ markerKeys: new Set(matcher.markerKeys) });
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

/** An agent (no session marker of its own: its session file is read) whose session file is a FIFO. */
async function agentWithFifoSessionFile(): Promise<{ agent: FakeAgent; fifo: string }> {
  const config = realpathSync(mkdtempSync(join(tmpdir(), 'corral-fifo-config-')));
  dirs.push(config);
  const agent = await FakeAgent.start({ env: { CLAUDE_CONFIG_DIR: config } });
  mkdirSync(join(config, 'sessions'));
  const fifo = join(config, 'sessions', `${agent.pid}.json`);
  execFileSync('mkfifo', [fifo]);
  return { agent, fifo };
}

function pass(provenance: Provenance, pid: number, source = sampler): GroupView[] {
  const records = sampler.sampleSome([pid]);
  const attributions = attribute(records, matcher);
  const groups = buildGroups(records, attributions, () => ({ cpuPercent: null, flags: [] }));
  provenance.addTo(groups, { records, attributions, matcher, sampler: source });
  return groups;
}

describe('provenance that cannot be read', () => {
  it('a FIFO session file: the agent is shown, its session not known, and the problem said once over many passes', async () => {
    const { agent, fifo } = await agentWithFifoSessionFile();
    let now = 0;
    const said: string[] = [];
    const provenance = new Provenance({ transcripts: true }, PROCESS_REFRESH_MS, () => now, {
      report: (m) => said.push(m),
    });
    for (let i = 0; i < 4; i++) {
      const groups = pass(provenance, agent.pid);
      const own = groups.find((g) => g.pgid === agent.pid);
      expect(own?.agent?.name).toBe('claude-code');
      expect(own?.session).toBeNull();
      now += PROCESS_REFRESH_MS; // the session file is due to be read again every pass
    }
    expect(said).toEqual([
      `not reading ${fifo} (not-a-regular-file); what it would tell is shown as not known`,
    ]);
  });

  it('a pass past its file-reading budget leaves the rest for a later pass, and says so once', async () => {
    const config = realpathSync(mkdtempSync(join(tmpdir(), 'corral-budget-config-')));
    dirs.push(config);
    const session = '1e2d3c4b-5a69-4788-9aab-bccddeeff001';
    const agent = await FakeAgent.start({
      markers: { CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: session },
      env: { CLAUDE_CONFIG_DIR: config },
      sessionFile: true, // the agent's own session is only in its session file
    });
    const said: string[] = [];
    const spent = new Provenance({ transcripts: true }, PROCESS_REFRESH_MS, Date.now, {
      report: (m) => said.push(m),
      readBudgetMs: 0,
    });
    for (let i = 0; i < 3; i++) {
      const own = pass(spent, agent.pid).find((g) => g.pgid === agent.pid);
      expect(own?.agent?.name).toBe('claude-code');
      expect(own?.session).toBeNull();
    }
    expect(said).toEqual([
      "reading agents' files took over 0 ms in one pass; the rest waits for a later pass",
    ]);
    const withBudget = new Provenance({ transcripts: true }, PROCESS_REFRESH_MS, Date.now, {
      readBudgetMs: 60_000,
    });
    expect(pass(withBudget, agent.pid).find((g) => g.pgid === agent.pid)?.session?.id).toBe(session);
  });

  it('a pass whose reading fails keeps every group, and says so once', async () => {
    const { agent } = await agentWithFifoSessionFile();
    const said: string[] = [];
    const provenance = new Provenance({ transcripts: true }, PROCESS_REFRESH_MS, Date.now, {
      report: (m) => said.push(m),
    });
    const failing = {
      platform: 'linux' as const,
      readCwd: (): Map<number, string | null> => {
        throw Object.assign(new Error('EIO: i/o error, readlink'), { code: 'EIO' });
      },
    };
    for (let i = 0; i < 3; i++) {
      const groups = pass(provenance, agent.pid, failing as unknown as LinuxSampler);
      expect(groups.find((g) => g.pgid === agent.pid)?.agent?.name).toBe('claude-code');
    }
    expect(said).toEqual(['left not known this time (Error: EIO: i/o error, readlink)']);
  });
});
