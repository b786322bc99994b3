import type { GroupView, ProcessView } from '../../../shared/model';
import type { ProcessIdentity, TeardownTarget } from './teardown-types';
import { isShellName } from '../../../shared/shells';
import { parseGroupId } from '../analysis/group-id';

const identity = (p: ProcessView): ProcessIdentity => ({
  pid: p.pid,
  startKey: p.startKey,
  command: p.command,
});

/** A shell reading commands from its terminal: a shell binary given no command to run. */
function isShellAtPrompt(p: ProcessView): boolean {
  return isShellName(p.name) && !p.argv.slice(1).some((a) => a === '-c' || /^-[a-z]*c[a-z]*$/.test(a));
}

/**
 * An interactive shell: a shell at its prompt on a terminal, or, in a group no agent owns, any session
 * leader on a terminal. Agent markers do not lift the protection: a person's terminal opened from an
 * agent's tmux inherits them.
 */
function interactiveShell(group: GroupView): ProcessView | undefined {
  return group.processes.find(
    (p) => p.tty !== null && ((p.pid === p.sid && group.agent === null) || isShellAtPrompt(p)),
  );
}

/**
 * What a teardown needs to know about the group the user chose: its members as just seen, the flagged
 * orphans, and the processes that left it by setsid but came from the same tool call.
 */
export function teardownTarget(
  groupId: string,
  group: GroupView,
  allGroups: readonly GroupView[],
): TeardownTarget {
  const parts = parseGroupId(groupId);
  if (!parts)
    throw new Error(`'${groupId}' is not a group id (expected <pgid>:<pid>:<start> as shown by corral ps)`);
  const escaped = allGroups
    .filter((g) => g.pgid !== group.pgid)
    .flatMap((g) => g.processes)
    .filter((p) => p.flags.includes('escaped') && p.originGroup?.pgid === group.pgid)
    .map(identity);
  const shell = interactiveShell(group);
  return {
    groupId,
    pgid: group.pgid,
    sid: group.sid,
    anchor: { pid: parts.anchorPid, startKey: parts.anchorStartKey },
    members: group.processes.filter((p) => p.state !== 'Z').map(identity),
    orphans: group.processes.filter((p) => p.flags.includes('orphan')).map(identity),
    escaped,
    containsAgent: group.containsAgent,
    protectedReason: shell ? `holds an interactive shell (pid ${shell.pid} on ${shell.tty})` : null,
  };
}
