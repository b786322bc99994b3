// What a notification says about a leftover when its provenance is known: the agent and project, the
// command the agent ran and the ports it holds ("claude-code in shop left `npm run dev` running on
// :3000"). Null when nothing is known beyond what the older wording says, so callers fall back to it.
import type { GroupView } from '../../shared/model';
import {
  groupPortNumbers,
  leftoverCommand,
  portsText,
  projectName,
} from '../../shared/words/provenance-text';
import { agentLabel } from './flagged-groups';
import { shortCommand } from './format';

export interface LeftoverWords {
  /** `claude-code in shop`, or just the agent when the project is unknown. */
  who: string;
  /** The command in backticks, bounded for a notification. */
  command: string;
  /** ` on :3000`, or empty. */
  where: string;
  /** The tool call's description, or null. */
  why: string | null;
}

export function leftoverWords(group: GroupView): LeftoverWords | null {
  const project = projectName(group.session?.project);
  const ports = groupPortNumbers(group);
  if (project === null && !group.toolCall && ports.length === 0) return null;
  return {
    who: project === null ? agentLabel(group) : `${agentLabel(group)} in ${project}`,
    command: `\`${shortCommand(leftoverCommand(group), 60)}\``,
    where: ports.length > 0 ? ` on ${portsText(ports)}` : '',
    why: group.toolCall?.description ?? null,
  };
}

/** "claude-code in shop left `npm run dev` running on :3000" */
export function leftBehindSentence(w: LeftoverWords): string {
  return `${w.who} left ${w.command} running${w.where}`;
}
