import { COMMAND_SPECS } from '../command-specs';
import { parseCommandArgs } from '../parse-command-args';
import type { GroupView, Settings } from '../../../shared/model';
import type { LoadedConfig } from '../../core/facade/service';
import { startCliService } from '../cli-service';
import { formatDuration } from '../terminal-text';
import { describeEvent } from '../event-words';
import { renderGroups } from '../group-table';
import { fitLine, paint, terminal, type Terminal } from '../terminal';
import { untilSignalled } from '../shutdown';

export async function runWatch(
  args: string[],
  settings: Settings,
  out: (text: string) => void,
  config?: LoadedConfig,
): Promise<number> {
  const { values } = parseCommandArgs(COMMAND_SPECS.watch, args);
  // On a terminal (both ways), the interactive view; --json and piped output stay as they were.
  if (!values.json && process.stdout.isTTY && process.stdin.isTTY)
    return (await import('../watch-ui/run-interactive')).runInteractiveWatch(settings, values.all, config);
  // Listening before the service starts: a service manager's SIGTERM during start-up still stops it cleanly.
  const signalled = untilSignalled('watch');
  const running = startCliService('watch', settings, config);
  const recent: string[] = [];
  const stopEvents = running.service.onEvent((event) => {
    if (values.json) out(JSON.stringify(event));
    else {
      recent.push(describeEvent(event));
      if (recent.length > 12) recent.shift();
    }
  });
  let stopView = (): void => {};
  if (!values.json) {
    stopView = running.service.onSnapshot((snapshot) => {
      const groups = snapshot.groups.filter((g) => values.all || g.agent !== null);
      const screen = renderWatchScreen({
        groups,
        now: snapshot.sampledAt,
        pollIntervalMs: settings.pollIntervalMs,
        upMs: Date.now() - started,
        recent,
        all: values.all,
        term: terminal(),
      });
      // Home, draw, clear what is left below: no flicker, the header stays on the first line.
      process.stdout.write(`\x1b[H${screen.map((l) => `${l}\x1b[K`).join('\n')}\n\x1b[J`);
    });
  }
  const started = Date.now();
  await signalled;
  stopEvents();
  stopView();
  await running.stop();
  return 0;
}

export interface WatchScreen {
  groups: readonly GroupView[];
  now: number;
  pollIntervalMs: number;
  upMs: number;
  recent: readonly string[];
  all: boolean;
  term: Terminal;
}

const EVENT_LINES = 5;

/**
 * One screenful: a header that stays on top, groups flagged first, the latest events at the bottom.
 * Never more lines than the terminal has rows, never a line wider than it (no wrapping).
 */
export function renderWatchScreen(w: WatchScreen): string[] {
  const flagged = w.groups.filter((g) => g.flags.length > 0).length;
  const header = paint(
    w.term,
    'bold',
    `corral watch — ${w.groups.length} group${w.groups.length === 1 ? '' : 's'}, ${flagged} flagged · every ${w.pollIntervalMs} ms · up ${formatDuration(w.upMs)} · Ctrl-C quits`,
  );
  const events = w.recent.slice(-EVENT_LINES);
  const body =
    w.groups.length === 0
      ? [w.all ? 'No process groups.' : 'No agent process groups. (--all shows every group.)']
      : renderGroups(w.groups, w.now, w.term);
  const rows = Number.isFinite(w.term.height) ? w.term.height - 1 : Infinity;
  const reserved = 2 + (events.length > 0 ? events.length + 2 : 0);
  const room = Math.max(2, rows - reserved);
  let shown = body;
  if (body.length > room) {
    shown = body.slice(0, room - 1);
    shown.push(
      paint(w.term, 'dim', `… ${body.length - shown.length} more lines (flagged groups are listed first)`),
    );
  }
  const lines = [header, '', ...shown];
  if (events.length > 0) lines.push('', paint(w.term, 'dim', 'Recent events:'), ...events);
  return lines.slice(0, rows).map((l) => fitLine(l, w.term.width));
}
