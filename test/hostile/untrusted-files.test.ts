// Files Corral did not write (an agent's session files, transcripts, MCP configurations) never freeze or
// blind it: a FIFO, a symlink loop, a path too long for the kernel or a config dir that is a file, planted
// where a real (fake) agent's leak points Corral, and `ps`, `watch` and `serve` still show the leak.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { GroupView, MonitorEvent, Snapshot } from '../../shared/model';
import { SHUTDOWN_DEADLINE_MS } from '../../main/cli/shutdown';
import { AS_NOBODY, noteSkippedAsNobody, nobodyCannotRunCheckout } from '../support/as-nobody';
import { FakeAgent } from '../support/fake-agent';
import { readProcStat } from '../support/proc';
import { runCli } from '../support/run-cli';
import { startServe, type ServeProcess } from '../support/serve-process';
import { trackGroup } from '../support/spawned-groups';
import { describeEvents, waitFor } from '../support/wait-for';

const SESSION = '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const MARKERS = {
  CLAUDECODE: '1',
  CLAUDE_CODE_ENTRYPOINT: 'cli',
  CLAUDE_CODE_SESSION_ID: SESSION,
  AI_AGENT: 'claude-code_2-1-197_agent',
};
// The built CLI (npm run build): its pid is Corral's own, the one SIGTERM is sent to.
const BUILT_CLI = fileURLToPath(new URL('../../out/main/corral.js', import.meta.url));

interface Places {
  root: string;
  configDir: string;
  cwd: string;
}

interface Hazard {
  name: string;
  /** Where the agent's CLAUDE_CONFIG_DIR and cwd are, made before it starts. */
  places(root: string): Places;
  /** Planted once the agent runs (its pid is known). */
  plant(places: Places, agentPid: number): void;
}

const mkfifo = (path: string): void => void execFileSync('mkfifo', [path]);

/** A directory whose path is 4091..4095 bytes long: `<it>/.git` is longer than PATH_MAX allows. */
function deepDir(root: string): string {
  let dir = root;
  while (dir.length < 4091) dir = join(dir, 'd'.repeat(Math.min(200, 4091 - dir.length - 1)));
  mkdirSync(dir, { recursive: true });
  return dir;
}

const plainPlaces = (root: string): Places => {
  const places = { root, configDir: join(root, 'config'), cwd: join(root, 'project') };
  mkdirSync(places.configDir);
  mkdirSync(places.cwd);
  return places;
};

const HAZARDS: Hazard[] = [
  {
    name: 'a FIFO as the agent’s session file',
    places: plainPlaces,
    plant: ({ configDir }, pid) => {
      mkdirSync(join(configDir, 'sessions'));
      mkfifo(join(configDir, 'sessions', `${pid}.json`));
    },
  },
  {
    name: 'a .mcp.json symlink loop in the project (ELOOP)',
    places: plainPlaces,
    plant: ({ cwd }) => symlinkSync('.mcp.json', join(cwd, '.mcp.json')),
  },
  {
    name: 'a leak in a very deep directory (ENAMETOOLONG)',
    places: (root) => {
      const places = { root, configDir: join(root, 'config'), cwd: deepDir(join(root, 'deep')) };
      mkdirSync(places.configDir);
      return places;
    },
    plant: () => {},
  },
  {
    name: 'CLAUDE_CONFIG_DIR pointing at a file (ENOTDIR)',
    places: (root) => {
      const places = { root, configDir: join(root, 'config-file'), cwd: join(root, 'project') };
      writeFileSync(places.configDir, 'not a directory\n');
      mkdirSync(places.cwd);
      return places;
    },
    plant: () => {},
  },
];

const roots: string[] = [];
const watchers: ChildProcess[] = [];

afterEach(() => {
  for (const w of watchers.splice(0)) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function tempRoot(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'corral-untrusted-')));
  roots.push(root);
  return root;
}

/** Corral's own environment: a temporary HOME, data directory and config, nothing of the real user's. */
function corralEnv(root: string): Record<string, string> {
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

interface Agent {
  agent: FakeAgent;
  places: Places;
}

async function agentWith(hazard: Hazard): Promise<Agent> {
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
async function leak(agent: FakeAgent): Promise<number> {
  const call = await agent.toolCall('sleep 600 >/dev/null 2>&1 & echo started');
  await call.exited();
  await waitFor('the tool call’s wrapper gone', () => !readProcStat(call.pid));
  return call.pid;
}

interface Watch {
  child: ChildProcess;
  events: MonitorEvent[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startWatch(root: string, asUser: readonly string[] = []): Watch {
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

const orphanedEvent = (watch: Watch, pgid: number) =>
  waitFor(
    `watch --json to report the leak ${pgid} orphaned`,
    () => watch.events.find((e) => e.type === 'orphaned' && e.pgid === pgid),
    { timeoutMs: 20_000, explain: () => describeEvents(watch.events) },
  );

/** One `snapshot:get` over serve's real WebSocket API. */
async function serveSnapshot(serve: ServeProcess): Promise<Snapshot> {
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

const leakIn = (groups: readonly GroupView[], pgid: number): GroupView | undefined =>
  groups.find((g) => g.pgid === pgid && g.agent?.name === 'claude-code');

describe.each(HAZARDS)('$name', (hazard) => {
  it('ps --json still lists the leak, and exits 0', async () => {
    const { agent, places } = await agentWith(hazard);
    const pgid = await leak(agent);
    const ps = await runCli(['ps', '--json'], { env: corralEnv(places.root), timeoutMs: 30_000 });
    expect(ps.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack trace
    expect(ps.code).toBe(0);
    const { groups } = JSON.parse(ps.stdout) as { groups: GroupView[] };
    expect(leakIn(groups, pgid)).toBeDefined();
  });

  it('watch --json still reports a later leak', async () => {
    const { agent, places } = await agentWith(hazard);
    const first = await leak(agent);
    const watch = startWatch(places.root);
    await orphanedEvent(watch, first);
    const later = await leak(agent);
    await orphanedEvent(watch, later);
  });

  it('serve’s snapshot still has the leak’s group', async () => {
    const { agent } = await agentWith(hazard);
    const pgid = await leak(agent);
    const serve = await startServe({ pollIntervalMs: 200 });
    try {
      const groups = await waitFor(
        'the leak in serve’s snapshot',
        async () => {
          const snapshot = await serveSnapshot(serve);
          return leakIn(snapshot.groups, pgid) ? snapshot.groups : undefined;
        },
        { timeoutMs: 20_000 },
      );
      expect(leakIn(groups, pgid)!.processes.some((p) => p.command.startsWith('sleep 600'))).toBe(true);
    } finally {
      await serve.stop();
    }
  });
});

describe('a transcript swapped for a FIFO after Corral found it', () => {
  it('watch --json still reports a later leak of the same session', async () => {
    const places = plainPlaces(tempRoot());
    // The transcript as Claude Code keeps it, found and read while it is a file.
    const transcriptDir = join(places.configDir, 'projects', places.cwd.replace(/[^a-zA-Z0-9]/g, '-'));
    const transcript = join(transcriptDir, `${SESSION}.jsonl`);
    mkdirSync(transcriptDir, { recursive: true });
    writeFileSync(transcript, `${JSON.stringify({ type: 'user', sessionId: SESSION, cwd: places.cwd })}\n`);
    const agent = await FakeAgent.start({
      markers: MARKERS,
      env: { CLAUDE_CONFIG_DIR: places.configDir },
      cwd: places.cwd,
    });
    const first = await leak(agent);
    const watch = startWatch(places.root);
    await orphanedEvent(watch, first);
    rmSync(transcript);
    mkfifo(transcript);
    const later = await leak(agent);
    await orphanedEvent(watch, later);
  });
});

/** Opens the FIFO's write end once a reader has it open, and keeps it open: that reader's read() then blocks. */
function holdWriterWhenRead(fifo: string): () => boolean {
  let fd: number | null = null;
  return () => {
    if (fd !== null) return true;
    try {
      fd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
      const held = fd;
      afterRelease.push(() => closeSync(held));
      return true;
    } catch {
      return false; // ENXIO: nobody reads it
    }
  };
}
const afterRelease: (() => void)[] = [];
afterEach(() => {
  for (const release of afterRelease.splice(0)) release();
});

describe('SIGTERM ends Corral within its shutdown deadline, a FIFO planted in its way', () => {
  const fifoHazard = HAZARDS[0]!;

  it('watch', async () => {
    const { agent, places } = await agentWith(fifoHazard);
    const fifo = join(places.configDir, 'sessions', `${agent.pid}.json`);
    const pgid = await leak(agent);
    const watch = startWatch(places.root);
    const wedgedOrPast = holdWriterWhenRead(fifo);
    // Either the leak is reported (Corral got past the FIFO) or Corral is reading the FIFO (and stays stuck
    // there, the writer held open): either way it is then told to stop.
    await waitFor(
      'watch past the FIFO, or reading it',
      () => watch.events.some((e) => e.pgid === pgid) || wedgedOrPast(),
      { timeoutMs: 20_000 },
    );
    process.kill(watch.child.pid!, 'SIGTERM');
    const exit = await waitFor('watch to exit after SIGTERM', () => exitOf(watch.child), {
      timeoutMs: SHUTDOWN_DEADLINE_MS,
    });
    expect(exit).toEqual({ code: 0, signal: null });
  });

  it('serve', async () => {
    const { agent, places } = await agentWith(fifoHazard);
    const fifo = join(places.configDir, 'sessions', `${agent.pid}.json`);
    await leak(agent);
    const wedgedOrPast = holdWriterWhenRead(fifo);
    const serve = await startServe({ pollIntervalMs: 200 });
    let answered = false;
    void serveSnapshot(serve).then(
      () => (answered = true),
      () => {},
    );
    await waitFor('serve past the FIFO, or reading it', () => answered || wedgedOrPast(), {
      timeoutMs: 20_000,
    });
    let exit: { code: number | null } | undefined;
    void serve.stop().then((code) => (exit = { code })); // SIGTERM to serve's own pid
    await waitFor('serve to exit after SIGTERM', () => exit, { timeoutMs: SHUTDOWN_DEADLINE_MS });
    expect(exit).toEqual({ code: 0 });
  });
});

function exitOf(child: ChildProcess): { code: number | null; signal: NodeJS.Signals | null } | undefined {
  return child.exitCode !== null || child.signalCode !== null
    ? { code: child.exitCode, signal: child.signalCode }
    : undefined;
}

noteSkippedAsNobody('untrusted-files.test.ts');
const NOBODY_UID = 65534;
const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const SOURCE_CLI = fileURLToPath(new URL('../../main/cli/corral.ts', import.meta.url));

// EACCES needs a Corral that is not root (root passes every permission check): the agent and Corral run
// as nobody, the agent's CLAUDE_CONFIG_DIR is root's and closed to others.
describe.skipIf(nobodyCannotRunCheckout !== null)('a CLAUDE_CONFIG_DIR Corral may not enter (EACCES)', () => {
  async function closedConfigAgent(): Promise<{ agent: FakeAgent; root: string }> {
    const root = tempRoot();
    chmodSync(root, 0o755);
    const configDir = join(root, 'config');
    mkdirSync(configDir, { mode: 0o700 });
    const cwd = join(root, 'project');
    mkdirSync(cwd);
    chownSync(cwd, NOBODY_UID, NOBODY_UID);
    corralEnv(root); // made now, then given to nobody
    chownSync(join(root, 'corral-home'), NOBODY_UID, NOBODY_UID);
    const agent = await FakeAgent.start({
      markers: MARKERS,
      env: { CLAUDE_CONFIG_DIR: configDir, HOME: cwd },
      cwd,
      asUser: AS_NOBODY,
    });
    return { agent, root };
  }

  it('ps --json still lists the leak, and exits 0', async () => {
    const { agent, root } = await closedConfigAgent();
    const pgid = await leak(agent);
    const ps = await runCli(['ps', '--json'], {
      env: corralEnv(root),
      timeoutMs: 30_000,
      command: [...AS_NOBODY, process.execPath, TSX, SOURCE_CLI],
    });
    expect(ps.stderr).not.toMatch(/at .*\.ts:\d+/);
    expect(ps.code).toBe(0);
    expect(leakIn((JSON.parse(ps.stdout) as { groups: GroupView[] }).groups, pgid)).toBeDefined();
  });

  it('watch --json still reports a later leak', async () => {
    const { agent, root } = await closedConfigAgent();
    const first = await leak(agent);
    const watch = startWatch(root, AS_NOBODY);
    await orphanedEvent(watch, first);
    const later = await leak(agent);
    await orphanedEvent(watch, later);
  });
});
