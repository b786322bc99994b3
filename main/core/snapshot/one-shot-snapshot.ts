import type { GroupView, Settings } from '../../../shared/model';
import { AgentMatcher } from '../analysis/agent-matcher';
import { attribute } from '../analysis/attribution';
import { CpuMeter } from '../analysis/cpu-meter';
import { buildGroups } from '../analysis/grouping';
import { annotateOneShot } from '../analysis/one-shot-flags';
import { BUILTIN_SIGNATURES, PROVENANCE_ENV } from '../analysis/signatures';
import { Provenance } from '../provenance/add-provenance';
import { createSampler } from '../sampling/create-sampler';
import { identityKey, type ProcessSampler } from '../sampling/process-record';

export interface OneShotSnapshot {
  sampledAt: number;
  groups: GroupView[];
}

export function matcherFor(settings: Settings): AgentMatcher {
  return new AgentMatcher([...settings.agents, ...BUILTIN_SIGNATURES], PROVENANCE_ENV);
}

export function provenanceOptions(settings: Settings): { transcripts: boolean } {
  return { transcripts: settings.provenance?.transcripts ?? true };
}

/**
 * Two samples `intervalMs` apart, so CPU percent is a real delta, then grouped and attributed.
 * `intervalMs: 0` takes one sample and leaves CPU percent unknown (enough to name a group to stop).
 * Agents' groups carry their provenance (cwd, ports, session, tool call).
 */
export async function takeOneShotSnapshot(
  settings: Settings,
  {
    intervalMs = 300,
    sampler,
    portsOfAll = false,
  }: {
    intervalMs?: number;
    sampler?: ProcessSampler;
    /** Read the listening ports of every process, not only agents' (a port was asked for). */
    portsOfAll?: boolean;
  } = {},
): Promise<OneShotSnapshot> {
  const matcher = matcherFor(settings);
  const source = sampler ?? createSampler({ markerKeys: matcher.markerKeys });
  const meter = new CpuMeter();
  if (intervalMs > 0) {
    meter.update(source.sampleAll(), Date.now());
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  const records = source.sampleAll();
  const sampledAt = Date.now();
  const cpu = meter.update(records, sampledAt);
  const attributions = attribute(records, matcher);
  const annotations = annotateOneShot(
    records,
    attributions,
    (r) => cpu.get(identityKey(r.pid, r.startKey)) ?? null,
    settings.runaway,
    sampledAt,
  );
  const groups = buildGroups(records, attributions, (r) => annotations.get(r.pid)!);
  new Provenance(provenanceOptions(settings)).addTo(groups, {
    records,
    attributions,
    matcher,
    sampler: source,
    portsOfAll,
  });
  return { sampledAt, groups };
}
