// Files Corral did not write (an agent's session files, transcripts, MCP configurations) never freeze or
// blind it: a FIFO, a symlink loop, a path too long for the kernel or a config dir that is a file, planted
// where a real (fake) agent's leak points Corral, and `ps`, `watch` and `serve` still show the leak.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GroupView } from '../../shared/model';
import { FakeAgent } from '../support/fake-agent';
import { runCli } from '../support/run-cli';
import { startServe } from '../support/serve-process';
import { waitFor } from '../support/wait-for';
import {
  agentWith,
  cleanUpUntrusted,
  corralEnv,
  deepDir,
  FIFO_SESSION_FILE,
  leak,
  leakIn,
  MARKERS,
  mkfifo,
  orphanedEvent,
  plainPlaces,
  serveSnapshot,
  SESSION,
  startWatch,
  tempRoot,
  type Hazard,
} from './untrusted-corral';

afterEach(cleanUpUntrusted);

const HAZARDS: Hazard[] = [
  FIFO_SESSION_FILE,
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
