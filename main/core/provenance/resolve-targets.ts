import type { GroupView } from '../../../shared/model';
import { parsePortNumber } from '../../../shared/port-number';

/** A port number from the command line; null when it is not one. */
export function parsePort(text: string): number | null {
  return parsePortNumber(text);
}

/** What `ps --port` and `kill --port` both say when nothing listens there. */
export const nothingOnPort = (port: number): string =>
  `no process Corral can read is listening on port ${port}`;

/** What `ps --session` and `kill --session` both say when the session has no live group. */
export const nothingInSession = (sessionId: string): string =>
  `no live process group belongs to session ${sessionId}`;

/** Groups with a process listening on `port` (any protocol, any address). */
export function groupsOnPort(groups: readonly GroupView[], port: number): GroupView[] {
  return groups.filter((g) => g.processes.some((p) => p.ports?.some((l) => l.port === port)));
}

/**
 * Groups of one agent session. A session id is matched whole, or by a prefix of at least 8 characters
 * that names exactly one session (the short ids the UI shows); null when a prefix is ambiguous.
 */
export function groupsOfSession(groups: readonly GroupView[], id: string): GroupView[] | null {
  const exact = groups.filter((g) => g.session?.id === id);
  if (exact.length > 0 || id.length < 8) return exact;
  const ids = new Set(groups.map((g) => g.session?.id).filter((s) => s?.startsWith(id)));
  if (ids.size > 1) return null;
  return groups.filter((g) => g.session?.id.startsWith(id));
}

export interface ResolvedTargets {
  /** Ids of the groups to tear down, each through every usual check. */
  groupIds: string[];
  /** Groups that match but are left alone, with why. */
  skipped: Array<{ groupId: string; reason: string }>;
  /** Set when nothing may be signalled at all. */
  refused: string | null;
}

const describe = (g: GroupView): string => {
  const p = g.processes.find((q) => q.state !== 'Z') ?? g.processes[0];
  return p ? `pid ${p.pid} (${p.command.slice(0, 80)})` : `group ${g.pgid}`;
};

/**
 * The groups `corral kill --port` stops: every group listening on the port. A listener no agent owns
 * is refused unless `anyOwner`: Corral's business is agents' leftovers, and a port is easy to mistype.
 * So is a listener of a user other than `selfUid` (Corral's own), whatever agent it seems to belong to:
 * its environment is its owner's to write, agent markers included.
 */
export function resolvePortTargets(
  groups: readonly GroupView[],
  port: number,
  anyOwner: boolean,
  selfUid: number | null,
): ResolvedTargets {
  const holders = groupsOnPort(groups, port);
  if (holders.length === 0) return { groupIds: [], skipped: [], refused: nothingOnPort(port) };
  const othersListener = (g: GroupView) =>
    g.processes.find((p) => p.uid !== selfUid && p.ports?.some((l) => l.port === port));
  const foreign = selfUid === null ? [] : holders.filter((g) => othersListener(g) !== undefined);
  if (foreign.length > 0 && !anyOwner) {
    const who = foreign.map((g) => {
      const p = othersListener(g)!;
      return `pid ${p.pid} (${p.command.slice(0, 80)}) of another user (uid ${p.uid})`;
    });
    return {
      groupIds: [],
      skipped: [],
      refused: `port ${port} is held by ${who.join(', ')}; pass --any-owner to stop it anyway`,
    };
  }
  const unowned = holders.filter((g) => g.agent === null);
  if (unowned.length > 0 && !anyOwner) {
    return {
      groupIds: [],
      skipped: [],
      refused: `port ${port} is held by ${unowned.map(describe).join(', ')}, which no agent started; pass --any-owner to stop it anyway`,
    };
  }
  return { groupIds: holders.map((g) => g.id), skipped: [], refused: null };
}

/**
 * The groups `corral kill --session` stops: every group of the session except the agent's own (which
 * teardown would refuse anyway, offering --orphans-only).
 */
export function resolveSessionTargets(groups: readonly GroupView[], sessionId: string): ResolvedTargets {
  const matched = groupsOfSession(groups, sessionId);
  if (matched === null)
    return { groupIds: [], skipped: [], refused: `'${sessionId}' is the start of more than one session id` };
  if (matched.length === 0) return { groupIds: [], skipped: [], refused: nothingInSession(sessionId) };
  const out: ResolvedTargets = { groupIds: [], skipped: [], refused: null };
  for (const g of matched) {
    if (g.containsAgent) out.skipped.push({ groupId: g.id, reason: "the agent's own group" });
    else out.groupIds.push(g.id);
  }
  if (out.groupIds.length === 0)
    out.refused = `session ${sessionId} has no leftover groups (${out.skipped.map((s) => s.reason).join('; ')})`;
  return out;
}
