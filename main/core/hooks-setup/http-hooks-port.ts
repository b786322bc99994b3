import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tcpPortOwners } from './tcp-port-owners';

/**
 * Claude Code's http hooks post to a TCP port and cannot tell who listens there: whoever holds the
 * port receives the payload and the token and is believed. So they are installed only on a port no
 * other user may bind: on Linux, running as root, a port below net.ipv4.ip_unprivileged_port_start
 * (binding one takes CAP_NET_BIND_SERVICE, which other users lack). Everywhere else they are refused
 * and the command hooks (the client on the 0700 Unix socket) are the safe choice.
 */
export const HTTP_HOOKS_UNSAFE =
  "Claude Code's http hooks cannot tell who listens on their TCP port: another local user who takes the port receives every payload and the token, and Claude Code believes its answers (a forged answer can approve and rewrite a command)";

export function unprivilegedPortStart(procRoot = '/proc'): number | null {
  try {
    const n = Number(readFileSync(`${procRoot}/sys/net/ipv4/ip_unprivileged_port_start`, 'utf8').trim());
    return Number.isInteger(n) && n >= 0 ? n : null;
  } catch {
    return null;
  }
}

/** Whether no user but root may bind `port` here (Linux, below the unprivileged start). */
export function portOnlyRootBinds(port: number, procRoot = '/proc'): boolean {
  if (process.platform !== 'linux') return false;
  const start = unprivilegedPortStart(procRoot);
  return start !== null && port >= 1 && port < start;
}

/** Why http hooks may not be installed here, or null when they may. */
export function httpHooksRefusal(procRoot = '/proc'): string | null {
  const start = process.platform === 'linux' ? unprivilegedPortStart(procRoot) : null;
  const safeAlternative =
    'Install the default command hooks instead (`corral hooks install`): they ask the running Corral over a Unix socket only you can open.';
  if (process.platform !== 'linux' || start === null) {
    return `${HTTP_HOOKS_UNSAFE}, and here any user may bind any port. ${safeAlternative}`;
  }
  if (process.geteuid?.() !== 0 || start <= 1) {
    return `${HTTP_HOOKS_UNSAFE}. They are installed only by root on a port below ${start} (net.ipv4.ip_unprivileged_port_start), which no other user may bind. ${safeAlternative}`;
  }
  return null;
}

/**
 * The ports a fetch client refuses to connect to (the Fetch Standard's "bad port" list,
 * https://fetch.spec.whatwg.org/#bad-port): Node's fetch fails them with "bad port", and so would any
 * agent whose http hooks post through fetch. Four of them (989, 990, 993, 995) lie in the range the
 * hooks' port is drawn from: an endpoint on 993 was never reached.
 */
const FETCH_BAD_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104,
  109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
  526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

export function fetchRefusesPort(port: number): boolean {
  return FETCH_BAD_PORTS.has(port);
}

/** Whether an http hooks endpoint on `port` may be kept: root alone binds it, and fetch clients reach it. */
export function httpHookPortUsable(port: number, procRoot = '/proc'): boolean {
  return portOnlyRootBinds(port, procRoot) && !fetchRefusesPort(port);
}

/** A port for root's http hooks: below the unprivileged start, one fetch allows, with nothing listening on it now. */
export function privilegedHookPort(procRoot = '/proc'): number {
  const start = unprivilegedPortStart(procRoot) ?? 1024;
  const low = Math.max(1, start - 324);
  for (let tries = 0; tries < 100; tries++) {
    const port = randomInt(low, start);
    if (fetchRefusesPort(port)) continue;
    if ((tcpPortOwners(port, procRoot) ?? []).length === 0) return port;
  }
  throw new Error(`no free port below ${start} for the http hooks`);
}
