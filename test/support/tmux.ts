// tmux (Debian's, scripts/install-test-deps.sh) as a user's terminal for the interactive `corral watch`.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { waitFor } from './wait-for';

/** A tmux server of the test's own (its own socket), driven like a user at a terminal of a given size. */
export class Tmux {
  private static servers = 0;
  private readonly socket = `corral-watch-test-${process.pid}-${Tmux.servers++}`;

  constructor(private readonly size: { columns: number; rows: number } = { columns: 120, rows: 40 }) {}

  run(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  }

  start(command: string): void {
    this.run(
      'new-session',
      '-d',
      '-s',
      'w',
      '-x',
      String(this.size.columns),
      '-y',
      String(this.size.rows),
      command,
    );
    this.run('set-option', '-t', 'w', 'remain-on-exit', 'on');
  }

  screen(): string {
    return this.run('capture-pane', '-p', '-t', 'w');
  }

  keys(...keys: string[]): void {
    this.run('send-keys', '-t', 'w', ...keys);
  }

  /** Literal text, typed as is. */
  type(text: string): void {
    this.run('send-keys', '-t', 'w', '-l', text);
  }

  paneDead(): { dead: boolean } {
    return { dead: this.run('list-panes', '-t', 'w', '-F', '#{pane_dead}').trim() === '1' };
  }

  /** Ends the server this test started (its socket), and with it the pane's processes. */
  stop(): void {
    try {
      this.run('kill-server');
    } catch {
      // Already gone.
    }
  }

  /**
   * Quits watch as a user would (Esc, then q), then ends the server; whatever of the pane is left (tsx
   * runs watch as its child) is stopped by the pane's own process group, the one tmux made for it.
   */
  async close(): Promise<void> {
    let pgid = 0;
    try {
      pgid = Number(this.run('list-panes', '-t', 'w', '-F', '#{pane_pid}').trim());
      this.keys('Escape');
      this.keys('q');
      await waitFor('the pane ended', () => this.paneDead().dead, { timeoutMs: 10_000 });
    } catch {
      // No pane, or watch did not quit: the group is stopped below.
    }
    this.stop();
    if (pgid > 1) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      await waitFor('the pane’s processes gone', () => !existsSync(`/proc/${pgid}`), { timeoutMs: 10_000 });
    }
  }

  waitScreen(what: string, check: (screen: string) => boolean, timeoutMs = 20_000): Promise<string> {
    return waitFor(
      what,
      () => {
        const s = this.screen();
        return check(s) ? s : undefined;
      },
      { timeoutMs, intervalMs: 100, explain: () => this.screen() },
    );
  }
}
