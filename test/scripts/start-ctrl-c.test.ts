import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDirForTest, trackGroup } from '../support/spawned-groups';
import { tmpdirEnv } from '../support/test-tmpdir';
import { waitFor } from '../support/wait-for';

const START = fileURLToPath(new URL('../../scripts/start.mjs', import.meta.url));

// Issue 47: Ctrl-C on `npm start` printed "a second signal came; exiting without finishing the stop"
// and exited 130: the script forwarded the SIGINT the terminal had already sent its whole group.
describe('npm start and Ctrl-C', () => {
  it('stops `corral serve` cleanly when the whole process group gets one SIGINT, as from a terminal', async () => {
    const home = tempDirForTest('corral-start-');
    // Its own process group, standing for the terminal's foreground group; no display, so serve starts.
    const child = spawn(process.execPath, [START, '--port', '0'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        ...tmpdirEnv(),
        CORRAL_DATA_DIR: `${home}/data`,
        CORRAL_CONFIG: '/nonexistent',
      },
    });
    trackGroup(child.pid!);
    let out = '';
    let err = '';
    let url: string | null = null;
    createInterface({ input: child.stdout }).on('line', (line) => {
      out += `${line}\n`;
      url ??= /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(line)?.[1] ?? null;
    });
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
      child.on('exit', (code, signal) => r({ code, signal })),
    );
    await waitFor('corral serve to print its URL', () => url ?? undefined, {
      timeoutMs: 30_000,
      explain: () => `stdout: ${out}\nstderr: ${err}`,
    });
    // What a terminal does on Ctrl-C: one SIGINT to every process of its foreground group.
    process.kill(-child.pid!, 'SIGINT');
    const { code } = await exited;
    expect(err).not.toContain('second signal');
    expect(code, `stdout: ${out}\nstderr: ${err}`).toBe(0);
  });
});
