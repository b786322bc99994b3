import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { attribute } from '../../main/core/analysis/attribution';
import { buildGroups } from '../../main/core/analysis/grouping';
import { Provenance } from '../../main/core/provenance/add-provenance';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { matcherFor } from '../../main/core/analysis/signatures';
import { selfCpuMicros } from '../lib/cpu-clock';
import { summarize } from '../lib/stats';
import type { Row } from '../lib/table';

export interface ProvenanceCost {
  tableSize: number;
  agentProcesses: number;
  /** CPU ms per call, one entry per round (the round's mean). */
  cwdAndPortsOfAgents: number[];
  portsOfEveryProcess: number[];
  /** Provenance.addTo over the whole grouped table: what a monitor pays per rebuild. */
  addTo: number[];
}

function timeCalls(rounds: number, perRound: number, call: () => void): number[] {
  const out: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = selfCpuMicros();
    for (let i = 0; i < perRound; i++) call();
    out.push((selfCpuMicros() - start) / 1000 / perRound);
  }
  return out;
}

/**
 * The cost of reading provenance on the table the bench populated: cwd and listening ports of the
 * agents' processes only (what a monitor reads), the ports of every process (what `--port` reads,
 * once), and the whole addTo pass over the grouped table (sessions, roles, projects; no transcripts).
 */
export function measureProvenanceCost(rounds: number, perRound: number): ProvenanceCost {
  const matcher = matcherFor(DEFAULT_SETTINGS);
  const sampler = new LinuxSampler({ markerKeys: matcher.markerKeys });
  try {
    const records = sampler.sampleAll();
    const attributions = attribute(records, matcher);
    const agentPids = records.filter((r) => attributions.has(r.pid)).map((r) => r.pid);
    const allPids = records.map((r) => r.pid);
    const cwdAndPortsOfAgents = timeCalls(rounds, perRound, () => {
      sampler.readCwd(agentPids);
      sampler.listeningPorts(agentPids);
    });
    const portsOfEveryProcess = timeCalls(rounds, Math.max(1, Math.round(perRound / 10)), () => {
      sampler.listeningPorts(allPids);
    });
    const provenance = new Provenance({ transcripts: true });
    const annotate = () => ({ cpuPercent: null, flags: [] });
    const addTo = timeCalls(rounds, perRound, () => {
      const groups = buildGroups(records, attributions, annotate);
      provenance.addTo(groups, { records, attributions, matcher, sampler });
    });
    const groupsOnly = timeCalls(rounds, perRound, () => buildGroups(records, attributions, annotate));
    return {
      tableSize: records.length,
      agentProcesses: agentPids.length,
      cwdAndPortsOfAgents,
      portsOfEveryProcess,
      addTo: addTo.map((ms, i) => Math.max(0, ms - groupsOnly[i]!)),
    };
  } finally {
    sampler.close();
  }
}

export function provenanceRows(extra: number, cost: ProvenanceCost): Row[] {
  const section = `provenance, ${extra.toLocaleString('en-US')} extra (${cost.agentProcesses} agent's)`;
  const agents = summarize(cost.cwdAndPortsOfAgents);
  return [
    {
      section,
      name: "cwd + listening ports of the agents' processes, CPU per call",
      unit: 'ms',
      summary: agents,
      note: `${cost.tableSize} in the table; at one call a second ${(agents.median / 10).toFixed(3)} % of a core`,
    },
    {
      section,
      name: 'listening ports of every process (corral ps/kill --port), CPU per call',
      unit: 'ms',
      summary: summarize(cost.portsOfEveryProcess),
      note: 'read once per command, never per poll',
    },
    {
      section,
      name: 'Provenance.addTo over the grouped table (reads included), CPU per pass',
      unit: 'ms',
      summary: summarize(cost.addTo),
      note: `buildGroups excluded; at one pass a second ${(summarize(cost.addTo).median / 10).toFixed(3)} % of a core`,
    },
  ];
}
