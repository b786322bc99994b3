/** The columns the ps baseline asks for: what Corral's sampler returns, as near as ps can say it. */
export const PS_ARGS = [
  '-e',
  '-ww',
  '-o',
  'pid=,ppid=,pgid=,sid=,uid=,stat=,etimes=,cputimes=,rss=,tty=,comm=,args=',
];

export interface PsRow {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  uid: number;
  stat: string;
  elapsedSeconds: number;
  cpuSeconds: number;
  rssKb: number;
  tty: string;
  /** comm and args together: comm may hold spaces, so the two are not split apart. */
  rest: string;
}

/** Parses `ps -o pid=,ppid=,...` output: ten space-separated columns, then the free-form rest. */
export function parsePs(text: string): PsRow[] {
  const rows: PsRow[] = [];
  for (const line of text.split('\n')) {
    const parts = line.trim().split(/\s+/);
    if (parts.length < 11) continue;
    const n = parts.slice(0, 10);
    const pid = Number(n[0]);
    if (!Number.isInteger(pid)) continue;
    rows.push({
      pid,
      ppid: Number(n[1]),
      pgid: Number(n[2]),
      sid: Number(n[3]),
      uid: Number(n[4]),
      stat: n[5]!,
      elapsedSeconds: Number(n[6]),
      cpuSeconds: Number(n[7]),
      rssKb: Number(n[8]),
      tty: n[9]!,
      rest: parts.slice(10).join(' '),
    });
  }
  return rows;
}
