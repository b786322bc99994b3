import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Incident } from '../../shared/model';
import { FakeAgent } from '../support/fake-agent';
import { groupMembers, readProcStat } from '../support/proc';
import { runCli } from '../support/run-cli';
import { waitFor } from '../support/wait-for';
import { freePort, waitListening } from '../provenance/live-support';
import { tempDirForTest } from '../support/spawned-groups';
import { Tmux } from '../support/tmux';

const CLI = fileURLToPath(new URL('../../main/cli/corral.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));

/** The list, without the recent events below it (they name groups the search hides). */
const listed = (screen: string): string => screen.split('Recent events:')[0]!;
const selectedLine = (screen: string): string => screen.split('\n').find((l) => l.startsWith('›')) ?? '';
/** The group id on the selected line (its AGE moves on, its id does not). */
const selectedId = (screen: string): string => selectedLine(screen).split(/\s+/)[1] ?? '';

describe('corral watch on a terminal', () => {
  it('selects with the arrows, searches by command and :port, stops with confirmation, keeps, sorts and quits', async () => {
    const home = tempDirForTest('corral-watch-home-');
    const dataDir = tempDirForTest('corral-watch-data-');
    const port = await freePort();
    const agent = await FakeAgent.start({
      markers: { CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: 'sess-watch-tui-01', CLAUDE_PID: '$PID' },
    });
    const sleeper = await agent.toolCall('sleep 600 >/dev/null 2>&1 & echo started');
    const server = await agent.toolCall(
      `python3 -m http.server ${port} --bind 127.0.0.1 >/dev/null 2>&1 & echo started`,
    );
    await sleeper.closed();
    await server.closed();
    await waitListening(port);
    const sleepPid = groupMembers(sleeper.pid)[0]!.pid;

    const tmux = new Tmux();
    const env = [
      `PATH=${process.env.PATH ?? '/usr/bin:/bin'}`,
      `HOME=${home}`,
      `CORRAL_DATA_DIR=${dataDir}`,
      'CORRAL_CONFIG=/nonexistent',
      'TERM=xterm-256color',
    ];
    // The shell around watch records its exit code: what tmux reports depends on it reaping the pane.
    const exitFile = join(home, 'watch-exit-code');
    tmux.start(`env -i ${env.join(' ')} ${process.execPath} ${TSX} ${CLI} watch; echo $? > ${exitFile}`);
    try {
      // Both leaks, under the agent session's heading; one of them selected.
      let screen = await tmux.waitScreen(
        'both leaks listed',
        (s) => s.includes('sleep 600') && s.includes('http.server'),
      );
      expect(screen).toContain('session sess-wat');
      expect(screen).toContain('↑↓ select');
      expect(selectedLine(screen)).toMatch(/sleep 600|http\.server/);
      const first = selectedId(screen);
      expect(first).toMatch(/^\d+:\d+:\d+$/);

      tmux.keys('Down');
      screen = await tmux.waitScreen('the selection moved', (s) => selectedId(s) !== first);
      tmux.keys('Up');
      await tmux.waitScreen('the selection moved back', (s) => selectedId(s) === first);

      // `/` then `:port`: only the server.
      tmux.keys('/');
      tmux.type(`:${port}`);
      tmux.keys('Enter');
      screen = await tmux.waitScreen('the search by port applied', (s) => s.includes(`search: :${port}`));
      expect(screen).toContain('http.server');
      expect(listed(screen)).not.toContain('sleep 600');
      expect(selectedLine(screen)).toContain('http.server');
      tmux.keys('Escape');
      await tmux.waitScreen(
        'the search cleared',
        (s) => s.includes('sleep 600') && s.includes('http.server'),
      );

      // Search by command, Enter for processes and story, then `k`: the confirmation lists the process.
      tmux.keys('/');
      tmux.type('sleep 6');
      tmux.keys('Enter');
      screen = await tmux.waitScreen('the search by command applied', (s) => s.includes('search: sleep 6'));
      expect(listed(screen)).not.toContain('http.server');
      expect(selectedLine(screen)).toContain('sleep 600');
      tmux.keys('Enter');
      screen = await tmux.waitScreen('the group’s processes and story', (s) =>
        s.includes('Story: started by'),
      );
      expect(screen).toContain(`└ ${sleepPid}`);
      expect(screen).toContain('orphan:');
      tmux.keys('k');
      screen = await tmux.waitScreen('the confirmation', (s) => s.includes('Press y to stop them'));
      expect(screen).toContain(`Stop group ${sleeper.pid}`);
      expect(screen).toContain('This process will get SIGTERM, then SIGKILL after 3 s if still running:');
      expect(screen).toMatch(new RegExp(`pid ${sleepPid}\\s+sleep 600`));
      // Nothing is signalled before y.
      expect(readProcStat(sleepPid)).not.toBeNull();
      tmux.keys('y');
      screen = await tmux.waitScreen('the stop reported', (s) =>
        s.includes('every targeted process is gone'),
      );
      expect(groupMembers(sleeper.pid)).toEqual([]);
      expect(groupMembers(server.pid).length).toBe(1);

      // `K` on the server left (Esc clears the search): kept, as `corral keep` would, and said so on its
      // row; `K` again lets it go.
      tmux.keys('Escape');
      screen = await tmux.waitScreen('the server left selected', (s) =>
        selectedLine(s).includes('http.server'),
      );
      tmux.keys('K');
      screen = await tmux.waitScreen('the keep reported', (s) =>
        new RegExp(`Kept group ${server.pid} \\(kept, (?:8h00m|7h59m) left\\)`).test(s),
      );
      await tmux.waitScreen('the row says kept', (s) =>
        /\(kept, (?:8h00m|7h59m) left\) .*http\.server/.test(selectedLine(s)),
      );
      const kept = await runCli(['keep', '--list', '--json'], {
        env: { CORRAL_DATA_DIR: dataDir, CORRAL_CONFIG: '/nonexistent' },
      });
      expect(kept.stdout).toContain(`"pgid":${server.pid}`);
      tmux.keys('K');
      await tmux.waitScreen('the keep ended', (s) => s.includes(`Group ${server.pid} is no longer kept.`));
      expect(groupMembers(server.pid).length).toBe(1);

      tmux.keys('s');
      await tmux.waitScreen('the sort changed', (s) => s.includes('sort: CPU'));

      tmux.keys('q');
      const code = await waitFor(
        'watch exited',
        () => existsSync(exitFile) && readFileSync(exitFile, 'utf8'),
        {
          timeoutMs: 30_000,
        },
      );
      expect(code.trim()).toBe('0');
    } finally {
      tmux.stop();
    }
    // The stop is the user's in the history, as a stop from the UI.
    const history = await runCli(['history', '--json'], {
      env: { CORRAL_DATA_DIR: dataDir, CORRAL_CONFIG: '/nonexistent' },
    });
    const incidents = (JSON.parse(history.stdout) as { incidents: Incident[] }).incidents;
    expect(incidents.find((i) => i.pgid === sleeper.pid)?.end).toBe('stopped-by-user');
  });

  it('is not interactive when its output is piped: the plain screen, and Ctrl-C quits', async () => {
    const child = spawn(process.execPath, [TSX, CLI, 'watch'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: tempDirForTest('corral-watch-home-'),
        CORRAL_DATA_DIR: tempDirForTest('corral-watch-data-'),
        CORRAL_CONFIG: '/nonexistent',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await waitFor('the plain screen', () => out.includes('Ctrl-C quits'), { timeoutMs: 30_000 });
      expect(out).not.toContain('↑↓ select');
      expect(out).not.toContain('\x1b[?1049h');
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });
});
