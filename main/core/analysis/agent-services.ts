import type { AgentRef, GroupView, ProcessView } from '../../../shared/model';

/**
 * An agent's own long-lived service and its workers, as each release showed them (docs/agents-observed.md):
 * Claude Code 2.1.332's `claude --bg` service `claude.exe daemon run …` (PPID 1, own session), its
 * `claude bg-pty-host --bg-pty-host …` hosts and their pre-started `claude bg-spare --bg-spare …` sessions;
 * Codex 0.171's `codex app-server … --managed-daemon`, which outlives the UI and parents tool calls.
 */
type MachineryKind = 'service' | 'worker' | 'spare';

function machineryOf(agent: string, argv: readonly string[]): MachineryKind | null {
  if (agent === 'claude-code') {
    if (argv[1] === 'daemon' && argv[2] === 'run') return 'service';
    if (argv.includes('--bg-pty-host')) return 'worker';
    if (argv.includes('--bg-spare')) return 'spare';
  }
  if (agent === 'codex' && argv[1] === 'app-server' && argv.includes('--managed-daemon')) return 'service';
  return null;
}

/**
 * Pure: whether a process of `agent` is its service's machinery, running no session of its own: the
 * service, a worker, or a spare not yet claimed (a claimed spare leads a session of its own). Such a
 * process says nothing about whether any session's agent still runs.
 */
export function isIdleAgentMachinery(
  agent: string,
  argv: readonly string[],
  pid: number,
  sid: number,
): boolean {
  const kind = machineryOf(agent, argv);
  return kind !== null && !(kind === 'spare' && sid === pid);
}

interface Placed {
  proc: ProcessView;
  group: GroupView;
  kind: MachineryKind | null;
}

/**
 * Pure: the agents' services as one entry each. The service, its workers and its spares waiting to be
 * claimed get role `agent-service` and the service's pid as their agent (`agent.servicePid` = `agent.pid`);
 * a session it runs (a claimed spare leads a session of its own, a `--session-id` session is a worker's
 * child) keeps its own agent pid, with `agent.servicePid` naming the service it runs under.
 *
 * What is left of a service is a leftover like any other: a service older than a newer one of the same
 * agent and user, a worker (or spare) no live service holds, a worker whose spare or session is gone. It
 * is flagged `orphan` and says why in `serviceLeftover`. A new object where anything changed.
 */
export function markAgentServices(groups: readonly GroupView[]): GroupView[] {
  const byPid = new Map<number, Placed>();
  let any = false;
  for (const group of groups) {
    if (!group.agent) continue;
    for (const proc of group.processes) {
      const kind = machineryOf(group.agent.name, proc.argv);
      if (kind) any = true;
      byPid.set(proc.pid, { proc, group, kind });
    }
  }
  if (!any) return [...groups];
  // The service above a process, or else the topmost ancestor these views hold.
  const above = (pid: number): { service: Placed | null; top: ProcessView | null } => {
    let cur = byPid.get(pid);
    for (let hops = 0; cur && hops < 16; hops++) {
      if (cur.kind === 'service') return { service: cur, top: cur.proc };
      const parent = byPid.get(cur.proc.ppid);
      if (!parent || parent.proc.startKey > cur.proc.startKey || cur.proc.ppid === cur.proc.pid)
        return { service: null, top: cur.proc };
      cur = parent;
    }
    return { service: null, top: null };
  };
  const serviceOf = (pid: number): Placed | null => above(pid).service;
  // Processes with a child, and those hosting a session (a child that is no spare waiting to be claimed).
  const parents = new Set<number>();
  const hosts = new Set<number>();
  for (const placed of byPid.values()) {
    parents.add(placed.proc.ppid);
    if (placed.kind === null || claimedSpare(placed)) hosts.add(placed.proc.ppid);
  }
  const newest = newestServices(byPid, serviceOf);

  return groups.map((group) => {
    if (!group.agent) return group;
    let agent: AgentRef = group.agent;
    let changed = false;
    let stale = false;
    const processes = group.processes.map((proc) => {
      const placed = byPid.get(proc.pid)!;
      const kind = claimedSpare(placed) ? null : placed.kind;
      const { service, top } = above(proc.pid);
      if (kind === null) {
        // A session of the service (or a tool call of a session under it): its agent runs under the service.
        const agentService = group.agent!.pid !== null ? serviceOf(group.agent!.pid) : null;
        if (agentService && agent.servicePid !== agentService.proc.pid) {
          agent = { ...agent, servicePid: agentService.proc.pid };
          changed = true;
        }
        return proc;
      }
      const why = leftoverReason(kind, placed, service, newest, { parents, hosts }, top);
      changed = true;
      if (why) {
        stale = true;
        const flags = proc.flags.includes('orphan') ? proc.flags : [...proc.flags, 'orphan' as const];
        return { ...proc, role: null, flags, serviceLeftover: why };
      }
      const servicePid = service?.proc.pid ?? agent.pid;
      if (servicePid !== null && (agent.pid !== servicePid || agent.servicePid !== servicePid))
        agent = { ...agent, pid: servicePid, servicePid };
      return { ...proc, role: 'agent-service' as const };
    });
    if (!changed) return group;
    const flags =
      stale && !group.flags.includes('orphan') ? ['orphan' as const, ...group.flags] : group.flags;
    if (stale) agent = { name: agent.name, pid: null };
    return { ...group, agent, flags, processes };
  });
}

/** A spare that leads a session of its own has been claimed: it is a session's agent now (2.1.332). */
function claimedSpare(placed: Placed): boolean {
  return placed.kind === 'spare' && placed.proc.sid === placed.proc.pid;
}

function leftoverReason(
  kind: MachineryKind,
  placed: Placed,
  service: Placed | null,
  generations: ReturnType<typeof newestServices>,
  children: { parents: ReadonlySet<number>; hosts: ReadonlySet<number> },
  top: ProcessView | null = null,
): string | null {
  const { proc, group } = placed;
  const { newest, keyOf } = generations;
  if (kind === 'service') {
    const key = keyOf.get(proc.pid);
    const latest = key === undefined ? undefined : newest.get(key);
    return latest && latest.proc.pid !== proc.pid
      ? `an older ${group.agent!.name} service: a newer one (pid ${latest.proc.pid}) runs`
      : null;
  }
  // A worker still hosting a session is that session's, whatever became of the service.
  if (kind === 'worker' && children.hosts.has(proc.pid)) return null;
  if (!service)
    return top && adopted(top) ? `a ${kind} of a ${group.agent!.name} service that is gone` : null;
  const serviceWhy = leftoverReason('service', service, null, generations, children);
  if (serviceWhy) return `a ${kind} of ${serviceWhy}`;
  if (kind === 'worker' && !children.parents.has(proc.pid))
    return `a ${group.agent!.name} service worker whose session or spare is gone`;
  return null;
}

/** Adopted by PID 1 (or seen reparented): whatever held it is gone, not merely missing from these views. */
function adopted(proc: ProcessView): boolean {
  return proc.ppid === 1 || proc.orphanedAt !== undefined;
}

/**
 * The directory a Claude Code service keeps its sockets in (`/tmp/cc-daemon-<uid>/<hash>`), read from its
 * workers' command lines (`--bg-pty-host <dir>/spare/<id>.pty.sock`): one per user and configuration, so
 * two services with the same one are two generations, and services with different ones both belong.
 */
function socketDir(argv: readonly string[]): string | null {
  for (const flag of ['--bg-pty-host', '--bg-spare']) {
    const at = argv.indexOf(flag);
    const path = at >= 0 ? argv[at + 1] : undefined;
    const cut = path ? path.search(/\/(spare|pty)\/[^/]+$/) : -1;
    if (path && cut > 0) return path.slice(0, cut);
  }
  return null;
}

/**
 * Each service's generation key (agent, user, socket directory), and the newest live service of each:
 * an older one beside it is a leftover generation. A service whose workers do not tell its directory has
 * no key and is never called old.
 */
function newestServices(
  byPid: ReadonlyMap<number, Placed>,
  serviceOf: (pid: number) => Placed | null,
): { newest: Map<string, Placed>; keyOf: Map<number, string> } {
  const keyOf = new Map<number, string>();
  for (const placed of byPid.values()) {
    if (placed.kind !== 'worker' && placed.kind !== 'spare') continue;
    const dir = socketDir(placed.proc.argv);
    const service = dir ? serviceOf(placed.proc.pid) : null;
    if (service && !keyOf.has(service.proc.pid))
      keyOf.set(service.proc.pid, `${service.group.agent!.name}\0${service.proc.uid}\0${dir}`);
  }
  const newest = new Map<string, Placed>();
  for (const [pid, key] of keyOf) {
    const placed = byPid.get(pid)!;
    if (placed.proc.state === 'Z') continue;
    const seen = newest.get(key);
    if (!seen || placed.proc.startKey > seen.proc.startKey) newest.set(key, placed);
  }
  return { newest, keyOf };
}
