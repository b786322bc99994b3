/**
 * Pure: the ports a tool call's output says are already taken. Servers word it many ways (table in
 * test/hooks/port-in-use.test.ts, each from the program's own source or output): Node's
 * `listen EADDRINUSE: address already in use :::3000`, Vite's `Port 5173 is in use, trying another
 * one...`, Next.js's `Port 3000 is in use, trying 3001 instead.`, uvicorn's `error while attempting to
 * bind on address ('127.0.0.1', 8000): address already in use`, Puma's `Address already in use -
 * bind(2) for "127.0.0.1" port 3000`, Go's `listen tcp :8080: bind: address already in use`.
 *
 * Only lines that say "in use" are searched for a port, so a timestamp or a version elsewhere in the
 * output is never read as one; a port the server moved on to ("trying 3001", "using available port
 * 3001") is not the one in use. When the output says a port is taken but not which (Python's
 * `[Errno 98] Address already in use`, Django's `That port is already in use.`), the port is read
 * from the command that was run (`--port 8000`, `http.server 8000`, `runserver 0.0.0.0:8000`).
 */

const IN_USE =
  /EADDRINUSE|AddrInUse|address (?:is )?already in use|(?:is|was) (?:already )?in use|already allocated|already running on port|is port \d+ in use/i;

/** Each pattern's first group is a port; all are tried on an "in use" line and its neighbours. */
const PORT_IN_LINE: readonly RegExp[] = [
  // "Port 3000 is in use", "port: 3000" (Node's error dump), `port 3000 (Errno::EADDRINUSE)`.
  /(?<!(?:available|another|new|using|trying|next|free) )\bport\b[:=]?\s*(\d{1,5})\b/gi,
  // IPv4 address and port: 127.0.0.1:3000.
  /\b\d{1,3}(?:\.\d{1,3}){3}:(\d{1,5})\b/g,
  // localhost:8000 (PHP's built-in server).
  /\blocalhost:(\d{1,5})\b/gi,
  // [::1]:8080 (Go, bracketed IPv6).
  /\[[0-9a-f:.]*\]:(\d{1,5})\b/gi,
  // Node's IPv6 forms: :::3000 (any address), ::1:3000 (loopback).
  /(?:^|[\s(])::(?:1)?:(\d{1,5})\b/g,
  // Go's `listen tcp :8080: bind: …`.
  /\blisten (?:tcp|tcp4|tcp6) [\w.-]*:(\d{1,5}):/g,
  // uvicorn: ('127.0.0.1', 8000).
  /\(\s*'[^']*',\s*(\d{1,5})\s*\)/g,
];

/** Where a command names the port it serves on (used only when the output named none). */
const PORT_IN_COMMAND: readonly RegExp[] = [
  /(?:^|\s)--port[= ](\d{1,5})\b/g,
  /(?:^|\s)-p ?(\d{1,5})\b/g,
  /\bPORT=(\d{1,5})\b/g,
  /\bhttp\.server (?:--?\S+ +)*(\d{1,5})\b/g,
  /\brunserver (?:[\w.]+:)?(\d{1,5})\b/g,
  /\b(?:localhost|\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5})\b/g,
];

/** Outputs are bounded by the agent, but not by much: only this much of each end is read. */
const MAX_SCANNED = 64 * 1024;
const MAX_PORTS = 4;
/** How many lines after an "in use" line may carry its port (Node prints `port: 3000` later). */
const FOLLOWING_LINES = 12;

function collect(patterns: readonly RegExp[], text: string, into: number[]): void {
  for (const pattern of patterns) {
    for (const m of text.matchAll(pattern)) {
      const port = Number(m[1]);
      if (port >= 1 && port <= 65_535 && !into.includes(port)) into.push(port);
    }
  }
}

function bounded(text: string): string {
  return text.length <= 2 * MAX_SCANNED ? text : `${text.slice(0, MAX_SCANNED)}\n${text.slice(-MAX_SCANNED)}`;
}

/** Whether the output says some address or port is taken. */
export function saysPortInUse(output: string): boolean {
  return IN_USE.test(bounded(output));
}

/**
 * The ports `output` says are in use, in the order it names them (at most four); `command` is the
 * shell command that was run, read only when the output says a port is taken without naming it.
 */
export function portsInUse(output: string, command = ''): number[] {
  const lines = bounded(output).split('\n');
  const ports: number[] = [];
  let saidInUse = false;
  for (let i = 0; i < lines.length; i++) {
    if (!IN_USE.test(lines[i]!)) continue;
    saidInUse = true;
    const found: number[] = [];
    collect(PORT_IN_LINE, lines[i]!, found);
    // Node's dump names the port on a later line (`port: 3000`), after the stack.
    if (found.length === 0)
      collect(PORT_IN_LINE.slice(0, 1), lines.slice(i + 1, i + 1 + FOLLOWING_LINES).join('\n'), found);
    for (const p of found) if (!ports.includes(p)) ports.push(p);
  }
  if (saidInUse && ports.length === 0) collect(PORT_IN_COMMAND, command.slice(0, MAX_SCANNED), ports);
  return ports.slice(0, MAX_PORTS);
}
