import { BenchAgent } from '../lib/fake-agent-driver';
import { liveCount } from '../lib/populations';
import { waitUntil } from '../lib/wait';

export interface AgentPopulation {
  agent: BenchAgent;
  /** PGIDs of its tool calls (each wrapper's pid). */
  toolCallGroups: number[];
  descendants: number;
}

/**
 * A fake agent whose tool calls left 50 descendants: 5 calls still running (wrapper + 4 children each)
 * and 5 finished calls whose 5 background children each outlived the wrapper (orphans).
 */
export async function startAgentPopulation(dir: string): Promise<AgentPopulation> {
  const agent = await BenchAgent.start({ DIR: dir });
  const toolCallGroups: number[] = [];
  for (let i = 0; i < 5; i++) {
    const call = await agent.toolCall('for i in 1 2 3 4; do sleep 3600 & done; wait');
    toolCallGroups.push(call.pid);
  }
  for (let i = 0; i < 5; i++) {
    const call = await agent.toolCall('for i in 1 2 3 4 5; do sleep 3600 & done; echo started');
    await agent.exited(call.id);
    toolCallGroups.push(call.pid);
  }
  const descendants = 50;
  await waitUntil(
    `${descendants} agent descendants`,
    () => liveCount(toolCallGroups) === descendants,
    15_000,
  );
  return { agent, toolCallGroups, descendants };
}
