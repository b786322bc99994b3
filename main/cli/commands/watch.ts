import { parseArgs } from 'node:util';
import type { MonitorEvent, Settings } from '../../../shared/model';
import type { LoadedConfig } from '../../core/config/load-config';
import { startCliService } from '../cli-service';
import { formatDuration, printable } from '../terminal-text';
import { renderPsTable } from './ps';

export const WATCH_USAGE = 'corral watch [--json] [--all]';

/** Resolves on the first SIGINT or SIGTERM. */
function untilSignalled(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const done = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve(signal);
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}

export function describeEvent(e: MonitorEvent): string {
  const time = new Date(e.at).toISOString().slice(11, 19);
  const agent = e.agent ? `${e.agent.name}${e.agent.pid ? `(${e.agent.pid})` : ''}` : '-';
  const detail = e.detail
    ? ` ${Object.entries(e.detail)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`
    : '';
  return printable(
    `${time} ${e.type.padEnd(16)} ${agent} pid ${e.pid} pgid ${e.pgid} ${e.command ?? ''}${detail}`,
  );
}

export async function runWatch(
  args: string[],
  settings: Settings,
  out: (text: string) => void,
  config?: LoadedConfig,
): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { json: { type: 'boolean', default: false }, all: { type: 'boolean', default: false } },
    strict: true,
  });
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
      const header = `corral watch — ${groups.length} group(s), polling every ${settings.pollIntervalMs} ms, up ${formatDuration(Date.now() - started)}. Ctrl-C quits.`;
      process.stdout.write(
        `\x1b[H\x1b[2J${header}\n\n${renderPsTable(groups, snapshot.sampledAt, values.all)}\n\nRecent events:\n${recent.join('\n')}\n`,
      );
    });
  }
  const started = Date.now();
  await untilSignalled();
  stopEvents();
  stopView();
  await running.stop();
  return 0;
}
