import type { GroupView, Settings } from '../../../shared/model';
import { attribute, type Attribution } from '../analysis/attribution';
import { CpuMeter } from '../analysis/cpu-meter';
import { buildGroups } from '../analysis/grouping';
import { markAgentServices } from '../analysis/agent-services';
import { markMcpGenerations } from '../analysis/mcp-generations';
import { markAgentTasks, type AgentTaskLists } from '../analysis/agent-tasks';
import { markBackgroundTasks } from '../analysis/background-tasks';
import { annotateOneShot } from '../analysis/one-shot-flags';
import { runawayLoad, wantedTimeMs } from '../analysis/runaway';
import { matcherFor } from '../analysis/signatures';
import { Provenance } from '../provenance/add-provenance';
import { createSampler } from '../sampling/create-sampler';
import { identityKey } from '../model/identity';
import type { ProcessRecord } from '../model/process-record';
import type { ProcessSampler } from '../sampling/process-sampler';
import { flagSessionEnded, heldSessions, type EndedSessions } from '../analysis/session-ended';
import { markKept, type KeepRecord } from '../analysis/kept-marks';
import { withRecordedIds, type NamedGroup } from '../analysis/recorded-group-ids';
import { markListedSessions, runningAgentsOf, withListedEnds } from '../analysis/listed-sessions';
import { AgentSessionLists } from '../agent-sessions/agent-session-lists';

/**
 * How long a one-shot command (`ps`, `kill`, `keep`) waits for the agents' own session lists beyond its
 * own look at the table: a list is decoration, and a user typing `ps` expects its answer at once, as
 * from `ps` (Qwen Code's CLI took 5.3 s to start here, Claude Code's 0.4 to 1.6 s). So the lists start
 * with the first sample and run while the table is read; one not done this long after is stopped by its
 * process group and noted, and its sessions show as not known. A running Corral (`watch`, the
 * app, the service) reads them off its poll with their full timeouts, and shows what they say.
 */
export const ONE_SHOT_LIST_WAIT_MS = 700;

export interface OneShotSnapshot {
  sampledAt: number;
  groups: GroupView[];
}

export function provenanceOptions(settings: Settings): { transcripts: boolean } {
  return { transcripts: settings.provenance?.transcripts ?? true };
}

/**
 * Two samples `intervalMs` apart, so CPU percent (and the runaway rule's demand) is a real delta, then
 * grouped and attributed.
 * `intervalMs: 0` takes one sample and leaves CPU percent unknown (enough to name a group to stop).
 * Agents' groups carry their provenance (cwd, ports, session, tool call).
 */
export async function takeOneShotSnapshot(
  settings: Settings,
  {
    intervalMs = 300,
    sampler,
    endedSessions,
    agentTasks = new Map(),
    keeps = [],
    named = [],
    portsOfAll = false,
    report,
    sessionLists = new AgentSessionLists({ report }),
  }: {
    /** The user's keeps (storage/keeps.ts): each group carries `kept`. */
    keeps?: readonly KeepRecord[];
    /** Groups named before (incidents, newest first): each group keeps the id it was first given. */
    named?: readonly NamedGroup[];
    intervalMs?: number;
    sampler?: ProcessSampler;
    endedSessions?: EndedSessions;
    /** The task lists the agents' hooks reported (storage/agent-tasks.ts). */
    agentTasks?: AgentTaskLists;
    /** Read the listening ports of every process, not only agents' (a port was asked for). */
    portsOfAll?: boolean;
    /** Told once of each problem reading provenance (a file refused, a group left undecorated). */
    report?: (message: string) => void;
    /** The agents' own session lists (`claude agents --json`…), read for the agents of this sample. */
    sessionLists?: AgentSessionLists;
  } = {},
): Promise<OneShotSnapshot> {
  const matcher = matcherFor(settings);
  const source = sampler ?? createSampler({ markerKeys: matcher.markerKeys });
  const meter = new CpuMeter();
  const waitMeter = new CpuMeter(wantedTimeMs);
  const listsWaited = new AbortController();
  const readLists = (rs: readonly ProcessRecord[], as: ReadonlyMap<number, Attribution>) =>
    sessionLists.readDue(runningAgentsOf(rs, as), listsWaited.signal);
  let listsRead: Promise<unknown> = Promise.resolve();
  if (intervalMs > 0) {
    const first = source.sampleAll();
    const at = Date.now();
    meter.update(first, at);
    waitMeter.update(first, at);
    listsRead = readLists(first, attribute(first, matcher));
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  const records = source.sampleAll();
  const sampledAt = Date.now();
  const cpu = meter.update(records, sampledAt);
  const wait = waitMeter.update(records, sampledAt);
  const attributions = attribute(records, matcher);
  // An agent started since the first sample (a list already started is not started again).
  listsRead = Promise.all([listsRead, readLists(records, attributions)]);
  const percentOf = (readings: Map<string, number | null>, r: ProcessRecord): number | null =>
    readings.get(identityKey(r.pid, r.startKey)) ?? null;
  const annotations = annotateOneShot(
    records,
    attributions,
    {
      cpu: (r) => percentOf(cpu, r),
      demand: (r) => runawayLoad(percentOf(cpu, r), percentOf(wait, r), wantedTimeMs(r) !== null),
    },
    settings.runaway,
    sampledAt,
  );
  for (const pid of heldPipeHolders(records, attributions, source)) {
    const flags = annotations.get(pid)?.flags;
    if (flags && !flags.includes('held-pipe')) flags.push('held-pipe');
  }
  const groups = withRecordedIds(
    buildGroups(records, attributions, (r) => annotations.get(r.pid)!),
    named,
  );
  const provenance = new Provenance(provenanceOptions(settings), undefined, undefined, { report });
  provenance.addTo(groups, {
    records,
    attributions,
    matcher,
    sampler: source,
    portsOfAll,
  });
  const giveUp = setTimeout(
    () => listsWaited.abort(`no answer within ${ONE_SHOT_LIST_WAIT_MS} ms after the process table was read`),
    ONE_SHOT_LIST_WAIT_MS,
  );
  await listsRead;
  clearTimeout(giveUp);
  const listed = sessionLists.current();
  const withLists = markListedSessions(groups, listed);
  const allEnded = withListedEnds(endedSessions ?? new Map(), listed);
  const markers = new Map(records.map((r) => [r.pid, r.markers]));
  const ended =
    allEnded.size > 0
      ? flagSessionEnded(
          withLists,
          (pid) => markers.get(pid),
          allEnded,
          // One sample: every agent provenance linked runs in it.
          heldSessions(withLists, provenance.liveAgents()),
        )
      : withLists;
  // Running on purpose, as the monitor's views say it (provenance/group-context.ts): kept, or a live background task.
  return {
    sampledAt,
    groups: markMcpGenerations(
      markAgentServices(markBackgroundTasks(markKept(markAgentTasks(ended, agentTasks), keeps, sampledAt))),
    ),
  };
}

/**
 * Agents' processes that hold the write end of a pipe or socket an agent reads, after their tool
 * call's shell (the group leader) exited: the same question the monitor asks after a wrapper exits,
 * asked once, so `ps` and `watch` flag the same processes.
 */
function heldPipeHolders(
  records: readonly ProcessRecord[],
  attributions: ReadonlyMap<number, Attribution>,
  sampler: ProcessSampler,
): number[] {
  if (!sampler.findHeldPipes) return [];
  const live = new Set(records.filter((r) => r.state !== 'Z').map((r) => r.pid));
  const readerPids: number[] = [];
  const holderPids: number[] = [];
  for (const r of records) {
    const a = attributions.get(r.pid);
    if (!a || r.state === 'Z') continue;
    if (a.isAgent) readerPids.push(r.pid);
    else if (!live.has(r.pgid)) holderPids.push(r.pid);
  }
  if (readerPids.length === 0 || holderPids.length === 0) return [];
  return sampler.findHeldPipes({ readerPids, holderPids }).map((pipe) => pipe.holderPid);
}
