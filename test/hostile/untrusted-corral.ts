// What the hostile-file tests share: a fake Claude Code agent whose files Corral will read, places to plant
// hazards in, its leaks, and the built Corral (ps, watch, serve) watching them with a temporary HOME.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import type { GroupView, MonitorEvent, Snapshot } from '../../shared/model';
import { FakeAgent } from '../support/fake-agent';
import { readProcStat } from '../support/proc';
import type { ServeProcess } from '../support/serve-process';
import { trackGroup } from '../support/spawned-groups';
import { describeEvents, waitFor } from '../support/wait-for';

export const SESSION = '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
export const MARKERS = {
  CLAUDECODE: '1',
  CLAUDE_CODE_ENTRYPOINT: 'cli',
  CLAUDE_CODE_SESSION_ID: SESSION,
  AI_AGENT: 'claude-code_2-1-197_agent',
};
// The built CLI (npm run build): its pid is Corral's own, the one SIGTERM is sent to.
const BUILT_CLI = fileURLToPath(new URL('../../out/main/corral.js', import.meta.url));

export interface Places {
  root: string;
  configDir: string;
  cwd: string;
}

export interface Hazard {
  name: string;
  /** Where the agent's CLAUDE_CONFIG_DIR and cwd are, made before it starts. */
  places(root: string): Places;
  /** Planted once the agent runs (its pid is known). */
  plant(places: Places, agentPid: number): void;
}

export const mkfifo = (path: string): void => void execFileSync('mkfifo', [path]);

/** A directory whose path is 4091..4095 bytes long: `<it>/.git` is longer than PATH_MAX allows. */
export function deepDir(root: string): string {
  let dir = root;
  while (dir.length < 4091) dir = join(dir, 'd'.repeat(Math.min(200, 4091 - dir.length - 1)));
  mkdirSync(dir, { recursive: true });
  return dir;
}

export const plainPlaces = (root: string): Places => {
  const places = { root, configDir: join(root, 'config'), cwd: join(root, 'project') };
  mkdirSync(places.configDir);
  mkdirSync(places.cwd);
  return places;
};

const roots: string[] = [];
const watchers: ChildProcess[] = [];

/** For afterEach: kills the watches these helpers started and removes their temporary roots. */
export function cleanUpUntrusted(): void {
  for (const w of watchers.splice(0)) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
}

export function tempRoot(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'corral-untrusted-')));
  roots.push(root);
  return root;
}

/** Corral's own environment: a temporary HOME, data directory and config, nothing of the real user's. */
export function corralEnv(root: string): Record<string, string> {
  const home = join(root, 'corral-home');
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'config.json'), JSON.stringify({ pollIntervalMs: 200 }));
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    CORRAL_CONFIG: join(home, 'config.json'),
    CORRAL_DATA_DIR: join(home, 'data'),
  };
}

export interface Agent {
  agent: FakeAgent;
  places: Places;
}

export async function agentWith(hazard: Hazard): Promise<Agent> {
  const places = hazard.places(tempRoot());
  const agent = await FakeAgent.start({
    markers: MARKERS,
    env: { CLAUDE_CONFIG_DIR: places.configDir },
    cwd: places.cwd,
  });
  hazard.plant(places, agent.pid);
  return { agent, places };
}

/** A tool call that leaves `sleep` running after its wrapper shell exits; returns the leak's PGID. */
export async function leak(agent: FakeAgent): Promise<number> {
  const call = await agent.toolCall('sleep 600 >/dev/null 2>&1 & echo started');
  await call.exited();
  await waitFor('the tool call’s wrapper gone', () => !readProcStat(call.pid));
  return call.pid;
}

export interface Watch {
  child: ChildProcess;
  events: MonitorEvent[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startWatch(root: string, asUser: readonly string[] = []): Watch {
  const [file, ...args] = [...asUser, process.execPath, BUILT_CLI, 'watch', '--json'];
  const child = spawn(file!, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: corralEnv(root),
  });
  trackGroup(child.pid!);
  watchers.push(child);
  const events: MonitorEvent[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) =>
    events.push(JSON.parse(line) as MonitorEvent),
  );
  child.stderr!.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, events, exited };
}

export const orphanedEvent = (watch: Watch, pgid: number) =>
  waitFor(
    `watch --json to report the leak ${pgid} orphaned`,
    () => watch.events.find((e) => e.type === 'orphaned' && e.pgid === pgid),
    { timeoutMs: 20_000, explain: () => describeEvents(watch.events) },
  );

/** One `snapshot:get` over serve's real WebSocket API. */
export async function serveSnapshot(serve: ServeProcess): Promise<Snapshot> {
  const served = new URL(serve.url);
  const ws = new WebSocket(`ws://${served.host}/api?token=${served.searchParams.get('token')}`, {
    headers: { Origin: `http://${served.host}` },
  });
  try {
    return await new Promise<Snapshot>((resolve, reject) => {
      ws.on('error', reject);
      ws.on('close', () => reject(new Error('closed before the snapshot came')));
      ws.on('open', () =>
        ws.send(JSON.stringify({ kind: 'request', id: 1, channel: 'snapshot:get', payload: undefined })),
      );
      ws.on('message', (data) => {
        const m = JSON.parse(String(data)) as {
          kind: string;
          id?: number;
          ok?: boolean;
          payload?: unknown;
          error?: string;
        };
        if (m.kind !== 'response' || m.id !== 1) return;
        if (m.ok) resolve(m.payload as Snapshot);
        else reject(new Error(`snapshot:get failed: ${m.error}`));
      });
    });
  } finally {
    ws.terminate();
  }
}

export const leakIn = (groups: readonly GroupView[], pgid: number): GroupView | undefined =>
  groups.find((g) => g.pgid === pgid && g.agent?.name === 'claude-code');

/** The agent's session file is a FIFO: a reader that opens it blocks until a writer comes. */
export const FIFO_SESSION_FILE: Hazard = {
  name: 'a FIFO as the agent’s session file',
  places: plainPlaces,
  plant: ({ configDir }, pid) => {
    mkdirSync(join(configDir, 'sessions'));
    mkfifo(join(configDir, 'sessions', `${pid}.json`));
  },
};
