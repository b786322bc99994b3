import {
  GROUP_FLAGS,
  type GroupFlag,
  type GroupView,
  type ProcessFlag,
  type ProcessView,
} from '../../../shared/model';
import type { ProcessRecord } from '../model/process-record';
import type { Attribution } from './attribution';
import { chooseAnchor, formatGroupId } from './group-id';

export interface ProcessAnnotation {
  cpuPercent: number | null;
  flags: ProcessFlag[];
  originalPpid?: number;
  orphanedAt?: number;
  originGroup?: { pgid: number; sid: number };
  heldPipe?: string;
}

export function commandOf(r: Pick<ProcessRecord, 'argv' | 'name'>): string {
  return r.argv.length > 0 && r.argv.some((a) => a.length > 0) ? r.argv.join(' ') : `[${r.name}]`;
}

export function toProcessView(r: ProcessRecord, a: ProcessAnnotation): ProcessView {
  const view: ProcessView = {
    pid: r.pid,
    ppid: r.ppid,
    pgid: r.pgid,
    sid: r.sid,
    uid: r.uid,
    state: r.state,
    startedAt: r.startedAt,
    startKey: r.startKey,
    cpuPercent: a.cpuPercent === null ? null : Math.round(a.cpuPercent * 10) / 10,
    rssBytes: r.rssBytes,
    command: commandOf(r),
    flags: a.flags,
    name: r.name,
    argv: r.argv,
    tty: r.tty,
    cpuSeconds: r.cpuTimeMs === null ? null : Math.round(r.cpuTimeMs) / 1000,
  };
  if (r.footprintBytes !== undefined) view.footprintBytes = r.footprintBytes;
  if (!r.environReadable) view.environReadable = false;
  if (a.originalPpid !== undefined) view.originalPpid = a.originalPpid;
  if (a.orphanedAt !== undefined) view.orphanedAt = a.orphanedAt;
  if (a.originGroup) view.originGroup = a.originGroup;
  if (a.heldPipe !== undefined) view.heldPipe = a.heldPipe;
  return view;
}

/**
 * Groups processes the way the kernel does: by PGID, each group inside its session. Kernel threads
 * (PGID 0) are not groups anyone can act on and are left out.
 */
export function buildGroups(
  records: readonly ProcessRecord[],
  attributions: ReadonlyMap<number, Attribution>,
  annotate: (r: ProcessRecord) => ProcessAnnotation,
  idFor: (pgid: number, members: readonly ProcessRecord[]) => string = (pgid, members) => {
    const anchor = chooseAnchor(pgid, members);
    return formatGroupId({ pgid, anchorPid: anchor.pid, anchorStartKey: anchor.startKey });
  },
): GroupView[] {
  const byPgid = new Map<number, ProcessRecord[]>();
  for (const r of records) {
    if (r.pgid <= 0) continue;
    const members = byPgid.get(r.pgid);
    if (members) members.push(r);
    else byPgid.set(r.pgid, [r]);
  }
  const groups: GroupView[] = [];
  for (const [pgid, members] of byPgid) {
    members.sort((a, b) => a.startKey - b.startKey || a.pid - b.pid);
    const leader = members.find((m) => m.pid === pgid && m.state !== 'Z');
    const processes = members.map((m) => toProcessView(m, annotate(m)));
    const attributed = members.map((m) => attributions.get(m.pid)).filter((a) => a !== undefined);
    const leaderAttribution = leader ? attributions.get(leader.pid) : undefined;
    const owner = leaderAttribution ?? attributed.find((a) => !a.isAgent) ?? attributed[0];
    const flagSet = new Set<GroupFlag>();
    for (const p of processes) for (const f of p.flags) if (f !== 'escaped') flagSet.add(f);
    const liveMembers = members.filter((m) => m.state !== 'Z');
    // Corral's flags are about agents' processes: a system group without its leader is not news.
    if (!leader && liveMembers.length > 0 && owner) flagSet.add('leaderless');
    let cpu: number | null = null;
    for (const p of processes) if (p.cpuPercent !== null) cpu = (cpu ?? 0) + p.cpuPercent;
    groups.push({
      id: idFor(pgid, members),
      pgid,
      sid: (leader ?? members[0]!).sid,
      leaderPid: pgid,
      leaderAlive: leader !== undefined,
      agent: owner ? { name: owner.agent, pid: owner.agentPid } : null,
      flags: GROUP_FLAGS.filter((f) => flagSet.has(f)),
      processes,
      cpuPercent: cpu === null ? null : Math.round(cpu * 10) / 10,
      rssBytes: members.reduce((sum, m) => sum + (m.rssBytes ?? 0), 0),
      startedAt: members[0]!.startedAt,
      containsAgent: attributed.some((a) => a.isAgent),
    });
  }
  return groups.sort((a, b) => a.sid - b.sid || a.pgid - b.pgid);
}
