// What the terminal can show: colour (a TTY, unless NO_COLOR or --no-color; FORCE_COLOR forces it)
// and width ($COLUMNS when set, as `COLUMNS=100 corral ps` asks, else the TTY's columns, else
// unlimited so pipes get whole lines).

export interface Terminal {
  colour: boolean;
  /** Columns to fit in: $COLUMNS, else the terminal's; Infinity for a pipe without COLUMNS. */
  width: number;
  /** Rows, for full-screen views; Infinity when unknown. */
  height: number;
}

interface StreamLike {
  isTTY?: boolean;
  columns?: number;
  rows?: number;
}

export function detectTerminal(
  stream: StreamLike,
  env: Record<string, string | undefined>,
  noColorFlag: boolean,
): Terminal {
  let colour = stream.isTTY === true;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') colour = true;
  if ((env.NO_COLOR !== undefined && env.NO_COLOR !== '') || noColorFlag) colour = false;
  const envColumns = Number(env.COLUMNS);
  const envRows = Number(env.LINES);
  const width =
    Number.isInteger(envColumns) && envColumns > 0
      ? envColumns
      : stream.isTTY && stream.columns
        ? stream.columns
        : Infinity;
  const height =
    Number.isInteger(envRows) && envRows > 0 ? envRows : stream.isTTY && stream.rows ? stream.rows : Infinity;
  return { colour, width, height };
}

const CODES = { bold: 1, dim: 2, red: 31, yellow: 33, magenta: 35, cyan: 36, green: 32 } as const;
export type Style = keyof typeof CODES;

export function paint(terminal: Pick<Terminal, 'colour'>, style: Style, text: string): string {
  return terminal.colour && text !== '' ? `\x1b[${CODES[style]}m${text}\x1b[0m` : text;
}

/** Cuts text to `width` characters, ending in `…` when cut. */
export function truncate(text: string, width: number): string {
  if (!Number.isFinite(width) || text.length <= width) return text;
  if (width <= 1) return text.slice(0, Math.max(0, width));
  return `${text.slice(0, width - 1)}…`;
}

/**
 * Cuts a line that may hold colour codes to `width` visible characters (codes do not count), so a
 * line never wraps; a cut line ends in `…` and a colour reset.
 */
export function fitLine(line: string, width: number): string {
  if (!Number.isFinite(width)) return line;
  // eslint-disable-next-line no-control-regex
  const visible = line.replace(/\x1b\[[0-9;]*m/g, '');
  if (visible.length <= width) return line;
  let out = '';
  let count = 0;
  for (let i = 0; i < line.length;) {
    // eslint-disable-next-line no-control-regex
    const code = /^\x1b\[[0-9;]*m/.exec(line.slice(i));
    if (code) {
      out += code[0];
      i += code[0].length;
      continue;
    }
    if (count === width - 1) break;
    out += line[i];
    count++;
    i++;
  }
  return `${out}…${line.includes('\x1b[') ? '\x1b[0m' : ''}`;
}

let current: Terminal = { colour: false, width: Infinity, height: Infinity };

/** The terminal the CLI writes to, set once by main(). */
export function terminal(): Terminal {
  return current;
}

export function setTerminal(t: Terminal): void {
  current = t;
}
