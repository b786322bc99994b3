import { readFileSync, readlinkSync } from 'node:fs';
import type { RunningAgent } from '../analysis/listed-sessions';
import type { ListCommand } from './run-list-command';
import type { SessionListReader } from './session-list-reader';

/** One list to read: whose (agent, user, home, the variables that locate it) and how. */
export interface ListSource {
  key: string;
  reader: SessionListReader;
  command: Omit<ListCommand, 'timeoutMs'>;
}

/** What is read of a running agent's process to ask its CLI: its executable, environment and group. */
export interface ProcessFacts {
  exe: string;
  env: ReadonlyMap<string, string>;
  gid: number;
}

/** The variables the list command keeps from the agent's environment, besides each reader's own. */
const KEPT_ENV = ['HOME', 'USER', 'LOGNAME', 'PATH', 'LANG', 'TMPDIR', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME'];
const MAX_ENVIRON_BYTES = 1024 * 1024;

/** Linux: the process's executable, environment and real gid, or null when any is unreadable. */
export function readProcessFacts(pid: number): ProcessFacts | null {
  try {
    const exe = readlinkSync(`/proc/${pid}/exe`);
    const environ = readFileSync(`/proc/${pid}/environ`);
    if (environ.length > MAX_ENVIRON_BYTES) return null;
    const env = new Map<string, string>();
    for (const entry of environ.toString('utf8').split('\0')) {
      const eq = entry.indexOf('=');
      if (eq > 0) env.set(entry.slice(0, eq), entry.slice(eq + 1));
    }
    const gid = /^Gid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return gid ? { exe: exe.replace(/ \(deleted\)$/, ''), env, gid: Number(gid[1]) } : null;
  } catch {
    return null;
  }
}

/**
 * The lists to read for the agents running now: one per agent, user, home and locating variables (the
 * first of its processes that tells them), run as that process's user with its CLI. An agent Corral
 * cannot act as (another user, Corral not root) has none.
 */
export function listSourcesOf(
  agents: readonly RunningAgent[],
  readers: ReadonlyMap<string, SessionListReader>,
  facts: (pid: number) => ProcessFacts | null = readProcessFacts,
  ownUid: number = process.getuid?.() ?? -1,
): ListSource[] {
  const sources = new Map<string, ListSource>();
  for (const a of agents) {
    const reader = readers.get(a.agent);
    if (!reader || (ownUid !== 0 && ownUid !== a.uid)) continue;
    const f = facts(a.pid);
    const home = f?.env.get('HOME');
    const command = f && home ? reader.command({ exe: f.exe, argv: a.argv }) : null;
    if (!f || !home || !command) continue;
    const env: Record<string, string> = {};
    for (const k of [...KEPT_ENV, ...reader.envKeys]) {
      const v = f.env.get(k);
      if (v !== undefined) env[k] = v;
    }
    env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
    Object.assign(env, reader.quietEnv);
    const key = [a.agent, a.uid, home, ...reader.envKeys.map((k) => f.env.get(k) ?? '')].join('\0');
    if (sources.has(key)) continue;
    const asUser = ownUid === 0 && a.uid !== 0 ? { uid: a.uid, gid: f.gid } : {};
    sources.set(key, { key, reader, command: { ...command, env, cwd: home, ...asUser } });
  }
  return [...sources.values()];
}
