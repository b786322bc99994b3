import type { MemberStat, ProcessSampler } from '../sampling/process-sampler';

export type { MemberStat };

export type ReadMembers = (pids: Iterable<number>) => MemberStat[];

/** The reader for the 10 ms watch: the sampler's cheap member read where it has one, full records elsewhere. */
export function memberReader(sampler: ProcessSampler): ReadMembers {
  if (sampler.readMembers) return sampler.readMembers.bind(sampler);
  return (pids) => sampler.sampleSome(pids);
}
