import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = fileURLToPath(new URL('../fixtures/darwin/', import.meta.url));

/** Non-comment lines of a recorded fixture, verbatim. */
export function recordedLines(file: string): string[] {
  return readFileSync(join(FIXTURES, file), 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'));
}

export interface RecordedPsAux {
  pid: number;
  rssKiB: number;
  stat: string;
  cpuMs: number;
  command: string;
}

/** One `ps aux` line: USER PID %CPU %MEM VSZ RSS TT STAT STARTED TIME COMMAND. */
export function parsePsAux(line: string): RecordedPsAux {
  const m = /^(\S+)\s+(\d+)\s+\S+\s+\S+\s+\d+\s+(\d+)\s+\S+\s+(\S+)\s+\S+\s+(\d+):(\d+)\.(\d+) (.*)$/.exec(
    line,
  );
  if (!m) throw new Error(`not a ps aux line: ${line}`);
  const [, , pid, rss, stat, min, sec, hundredths, command] = m as unknown as string[];
  return {
    pid: Number(pid),
    rssKiB: Number(rss),
    stat: stat as string,
    cpuMs: Number(min) * 60_000 + Number(sec) * 1000 + Number(hundredths) * 10,
    command: command as string,
  };
}

/** One `ps -ax` line: PID TT TIME COMMAND. */
export function parsePsAx(line: string): { pid: number; command: string } {
  const m = /^\s*(\d+)\s+\S+\s+\S+ (.*)$/.exec(line);
  if (!m) throw new Error(`not a ps -ax line: ${line}`);
  return { pid: Number(m[1]), command: m[2] as string };
}
