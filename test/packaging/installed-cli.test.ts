// The npm package as a user gets it: packed by a plain `npm pack` in a fresh clone (prepack builds it
// and checks it), installed globally into a temporary prefix with the machine's npm from the registry
// (dependencies' install scripts skipped, as npm does for global installs), then run with nothing of the
// checkout on PATH, on the machine's Node and on the official Node 22, 24 and 26 binaries
// scripts/install-test-node.sh puts in the cache.
import { shellWords } from '../../main/core/hooks-setup/hook-program-check';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, cachedNode, installGlobally, packFromClone, runtimePath } from '../support/installed-package';
import { removeDir } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
const work = mkdtempSync(join(tmpdir(), 'corral-installed-'));
let tarball = '';
let prefix = '';
const started: ChildProcess[] = [];

beforeAll(() => {
  tarball = packFromClone(work);
  prefix = installGlobally(work, tarball);
}, 300_000);

afterAll(() => {
  for (const child of started)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  removeDir(work);
});

const has = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const hasSystemctl = has('systemctl');
const hasAnalyze = has('systemd-analyze');
const machineMajor = Number(process.versions.node.split('.')[0]);
const runtimes: { label: string; node: string | null; skip: string | null }[] = [
  { label: `the machine's Node ${process.versions.node}`, node: process.execPath, skip: null },
  ...[22, 24, 26]
    .filter((major) => major !== machineMajor)
    .map((major) => {
      const node = cachedNode(major);
      return {
        label: `Node ${major} from the registry`,
        node,
        skip: node
          ? null
          : `Node ${major} is not installed (scripts/install-test-node.sh ${major} could not fetch it)`,
      };
    }),
];
for (const r of runtimes) if (r.skip) console.log(`installed-cli.test.ts: skipped on ${r.label}: ${r.skip}`);

describe('the packed tarball', () => {
  it('holds the built CLI, its hook entry and the UI, and no sources or tests', () => {
    const files = spawnSync('tar', ['tzf', tarball], { encoding: 'utf8' }).stdout.trim().split('\n');
    expect(files).toEqual(
      expect.arrayContaining([
        'package/package.json',
        'package/bin/corral.mjs',
        'package/out/main/corral.js',
        'package/out/main/corral-hook.js',
        'package/out/renderer/index.html',
      ]),
    );
    expect(files.filter((f) => /^package\/(main|shared|renderer|test|scripts|bench)\//.test(f))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.ts'))).toEqual([]);
    const manifest = JSON.parse(
      spawnSync('tar', ['xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout,
    ) as { private?: boolean; dependencies: Record<string, string> };
    expect(manifest.private).toBeUndefined();
    // ink and react: the interactive `watch` renders with them at run time.
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      'ink',
      'jsonc-parser',
      'koffi',
      'libsql',
      'prom-client',
      're2js',
      'react',
      'ws',
    ]);
  });
});

describe.each(runtimes)('the installed corral on $label', { timeout: 120_000 }, ({ label, node, skip }) => {
  // One HOME and data directory per runtime: nothing carries over from the others.
  const home = join(work, `home-${label.replace(/\W+/g, '-')}`);
  const data = join(home, 'data');
  const env = (): Record<string, string> => ({
    PATH: runtimePath(node!, prefix),
    HOME: home,
    CORRAL_DATA_DIR: data,
  });
  const corral = (
    args: string[],
    input?: string,
  ): { code: number | null; stdout: string; stderr: string } => {
    const r = spawnSync('corral', args, { env: env(), encoding: 'utf8', input, timeout: 60_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const longRunning = (args: string[]): { child: ChildProcess; stdout: () => string } => {
    const child = spawn('corral', args, { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(child);
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    return { child, stdout: () => out };
  };
  const exited = (child: ChildProcess): Promise<number | null> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
      else child.once('exit', (code) => resolve(code));
    });

  it.skipIf(skip !== null)('runs on this Node, says its version and lists the process table as JSON', () => {
    mkdirSync(data, { recursive: true });
    const which = spawnSync('node', ['-p', 'process.execPath'], { env: env(), encoding: 'utf8' });
    expect(which.stdout.trim()).toBe(node);
    expect(corral(['--version'])).toMatchObject({ code: 0, stdout: `corral ${version}\n` });
    const ps = corral(['ps', '--json', '--all']);
    expect(ps.code).toBe(0);
    const groups = (JSON.parse(ps.stdout) as { groups: { processes: { pid: number }[] }[] }).groups;
    expect(groups.length).toBeGreaterThan(0);
  });

  it.skipIf(skip !== null)(
    'hooks status names a hook left pointing at a gone checkout; hooks install points every hook at the installed corral; the hook runs',
    () => {
      const settings = join(home, '.claude', 'settings.json');
      const stale = '/usr/bin/node /nonexistent/corral-checkout/bin/corral.mjs hook claude-code PreToolUse';
      mkdirSync(join(home, '.claude'), { recursive: true });
      writeFileSync(
        settings,
        JSON.stringify({
          hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: stale }] }] },
        }),
      );
      const before = corral(['hooks', 'status', '--agent', 'claude-code', '--json']);
      expect(JSON.parse(before.stdout)).toMatchObject({
        agents: [{ state: 'partial', missingCommand: '/nonexistent/corral-checkout/bin/corral.mjs' }],
      });
      expect(corral(['hooks', 'status', '--agent', 'claude-code']).stdout).toContain(
        'its command no longer exists (/nonexistent/corral-checkout/bin/corral.mjs): run `corral hooks install` to repair it',
      );

      const install = corral(['hooks', 'install', '--agent', 'claude-code']);
      expect(install.code).toBe(0);
      const installed = JSON.parse(
        corral(['hooks', 'status', '--agent', 'claude-code', '--json']).stdout,
      ) as {
        agents: { state: string; events: Record<string, string>; missingCommand?: string }[];
      };
      // Claude Code's hooks run the client, which asks the running Corral and falls back to the
      // installed `corral`: the stale command is gone (PreToolUse with it: PostToolUse carries duration_ms).
      expect(installed.agents[0]).toMatchObject({ state: 'installed' });
      expect(Object.keys(installed.agents[0]!.events).sort()).toEqual([
        'PostToolUse',
        'PostToolUseFailure',
        'SessionEnd',
        'Stop',
      ]);
      expect(JSON.stringify(installed.agents[0]!.events)).not.toContain('corral-checkout');
      expect(installed.agents[0]!.missingCommand).toBeUndefined();

      // Codex runs hooks as commands: the client, which falls back to the installed `corral`.
      expect(corral(['hooks', 'install', '--agent', 'codex']).code).toBe(0);
      const codex = JSON.parse(corral(['hooks', 'status', '--agent', 'codex', '--json']).stdout) as {
        agents: { state: string; events: Record<string, string>; missingCommand?: string }[];
      };
      expect(codex.agents[0]).toMatchObject({ state: 'installed' });
      expect(codex.agents[0]!.missingCommand).toBeUndefined();
      const bin = join(prefix, 'bin', 'corral');
      // The client (C where a compiler is, else perl) holds its fallback as written.
      const words = shellWords(codex.agents[0]!.events.SessionEnd!);
      const client = words[words.indexOf('hook') - 1]!;
      expect(client).toMatch(/\/hooks\/corral-hook(-native)?$/);
      expect(readFileSync(client).includes(`exec ${bin} hook "$1" "$2"`)).toBe(true);

      // The agent runs the hook through a shell, with the payload on stdin.
      const session = `packaging-${process.pid}-${Date.now()}`;
      const hook = spawnSync('sh', ['-c', codex.agents[0]!.events.SessionEnd!], {
        env: env(),
        encoding: 'utf8',
        input: JSON.stringify({
          session_id: session,
          hook_event_name: 'SessionEnd',
          reason: 'exit',
          cwd: home,
        }),
        timeout: 30_000,
      });
      expect(hook).toMatchObject({ status: 0, stdout: '' });
      expect(readFileSync(join(data, 'hooks', 'ended-sessions.jsonl'), 'utf8')).toContain(session);
    },
  );

  it.skipIf(skip !== null)(
    "watch takes the data directory's writer lock (flock through koffi); a second one only reads; both stop on SIGTERM",
    async () => {
      const watch = longRunning(['watch', '--json']);
      const lock = join(data, 'incidents.lock');
      await waitFor(
        'watch to hold the writer lock',
        () => readFileSync(lock, 'utf8') === `${watch.child.pid}\n`,
        {
          timeoutMs: 30_000,
          explain: watch.stdout,
        },
      );
      // What the service and the app (or a second service) do on one data directory: one writes.
      const second = longRunning(['watch', '--json']);
      await waitFor(
        'the second watch to say it only reads',
        () =>
          second
            .stdout()
            .includes(
              `another Corral (pid ${watch.child.pid}) is recording incidents in ${data}; this one only reads them`,
            ),
        { timeoutMs: 30_000, explain: second.stdout },
      );
      expect(readFileSync(lock, 'utf8')).toBe(`${watch.child.pid}\n`);
      second.child.kill('SIGTERM');
      watch.child.kill('SIGTERM');
      expect(await exited(second.child)).toBe(0);
      expect(await exited(watch.child)).toBe(0);
    },
  );

  it.skipIf(skip !== null || node !== process.execPath || !hasSystemctl)(
    'service install names the installed corral in a unit systemd-analyze accepts; uninstall removes it',
    () => {
      mkdirSync(join(home, '.config'), { recursive: true });
      expect(corral(['service', 'install']).code).toBe(0);
      const unit = join(home, '.config/systemd/user/corral-watch.service');
      expect(readFileSync(unit, 'utf8')).toContain(
        `\nExecStart=${join(prefix, 'bin', 'corral')} watch --json\n`,
      );
      // Short: the user units' sockets below it (gnupg/S.gpg-agent.browser) must fit in a socket
      // address (108 bytes), and the test file's temporary directory is already a long path.
      const runtime = mkdtempSync(join(work, 'run-'));
      const verify = spawnSync('systemd-analyze', ['--user', 'verify', unit], {
        env: { ...env(), XDG_RUNTIME_DIR: runtime },
        encoding: 'utf8',
      });
      if (hasAnalyze)
        expect({ status: verify.status, stderr: verify.stderr }).toEqual({ status: 0, stderr: '' });
      expect(corral(['service', 'uninstall']).code).toBe(0);
      expect(readdirSync(join(home, '.config'))).toEqual([]);
    },
  );

  it.skipIf(skip !== null)('serve serves the UI built into the package', async () => {
    const serve = longRunning(['serve', '--port', '0']);
    const url = await waitFor(
      'serve to say its address',
      () => /serving on (http:\S+)/.exec(serve.stdout())?.[1],
      {
        timeoutMs: 30_000,
        explain: serve.stdout,
      },
    );
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    const script = /src="([^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(new URL(script!, url));
    expect(asset.status).toBe(200);
    expect((await asset.text()).length).toBeGreaterThan(10_000);
    serve.child.kill('SIGTERM');
    expect(await exited(serve.child)).toBe(0);
  });
});
