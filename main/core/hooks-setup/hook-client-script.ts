import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { executablesOnPath, isExecutableFile } from './executables-on-path';
import { ensureOwnDataDir, writeOwnFileAtomically } from '../storage/own-data-dir';
import { hookSocketPath } from './hook-socket-path';

/** The client's one deadline for a whole call, from before it connects to the end of the answer. */
export const CLIENT_DEADLINE_S = 1;

/** `text` as a perl single-quoted string. Pure. */
function perlQuote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * The hook client for agents that run hooks as commands: a perl script with no modules (plain perl
 * starts in a few ms, like bash; Node costs ~40 ms before any work), because it must speak to a Unix
 * socket, which no shell does. Before sending anything it checks (lstat) that the hooks folder is its
 * user's own and closed to others (0700) and the socket is its user's: then only the user's own
 * Corral can be listening, so the payload goes to no one else and the answer is Corral's. It posts the
 * payload (HTTP/1.1 over the socket, as hook-request-handler.ts expects) and prints the answer only
 * when it is a 200 marked `x-corral-hook: 1`. One deadline (alarm) covers the whole call, however an
 * answer trickles in. Only when nothing listens (no socket, ENOENT; a socket left by a Corral that is
 * gone, ECONNREFUSED; a folder or socket that is not its user's) does the one-shot hook replace the
 * client (exec), with the payload still unread on stdin; a service that took the connection and then
 * failed, was busy ("later") or missed the deadline gives no note rather than a Node process per call,
 * so a burst of tool calls never becomes a burst of one-shot hooks. Pure: text in, text out.
 */
export function hookClientScript(dataDir: string, oneShotPrefix: string): string {
  const socket = hookSocketPath(dataDir);
  // The eval line is a no-op to perl and, to a shell, hands the file to perl: settings written by an
  // earlier Corral run `bash <this file>`, and upgradeLegacyHookClient puts this client in its place.
  return `#!/usr/bin/perl
eval 'exec perl "$0" "$@"'
  if 0;
# Corral's hook client, written by \`corral hooks install\`: asks the running Corral on its Unix
# socket, else runs the one-shot hook. Usage: corral-hook hook <agent> <event>, the agent's JSON
# payload on stdin. No modules, so it starts in a few ms; see docs/hooks-service.md.
my ($cmd, $agent, $event) = @ARGV;
my $dir = ${perlQuote(join(dataDir, 'hooks'))};
my $path = ${perlQuote(socket)};
# Nothing to ask: the one-shot hook takes this process over, the payload still unread on stdin.
sub one_shot {
  alarm 0;
  exec '/bin/sh', '-c', ${perlQuote(`exec ${oneShotPrefix} hook "$1" "$2"`)}, 'sh', $agent // '', $event // '';
  exit 0;
}
one_shot() unless $cmd eq 'hook' && $agent =~ /\\A[a-z-]+\\z/ && $event =~ /\\A[A-Za-z]+\\z/;
# Only the user's own Corral can listen here: a folder of its own that no one else may enter, its socket.
my @d = lstat $dir;
one_shot() unless @d && -d _ && $d[4] == $> && ($d[2] & 077) == 0;
my @s = lstat $path;
one_shot() unless @s && -S _ && $s[4] == $>;
$SIG{ALRM} = sub { exit 0 };
$SIG{PIPE} = 'IGNORE';
alarm ${CLIENT_DEADLINE_S};
socket(my $sock, 1, 1, 0) or exit 0;
my $addr = $^O eq 'linux' ? pack('S Z*', 1, $path) : pack('C C Z*', length($path) + 2, 1, $path);
unless (connect($sock, $addr)) {
  # ENOENT, ECONNREFUSED: nothing listens (no service, or one that is gone).
  my $refused = $^O eq 'linux' ? 111 : 61;
  one_shot() if $! == 2 || $! == $refused;
  exit 0;
}
binmode STDIN;
binmode STDOUT;
my $payload = do { local $/; <STDIN> } // '';
my $req = "POST /hook/$agent/$event HTTP/1.1\\r\\nHost: corral\\r\\nContent-Type: application/json\\r\\n"
  . "x-corral-client: $$ " . getppid() . "\\r\\nContent-Length: " . length($payload)
  . "\\r\\nConnection: close\\r\\n\\r\\n" . $payload;
while (length $req) {
  my $n = syswrite($sock, $req) or exit 0;
  substr($req, 0, $n) = '';
}
my ($res, $end, $want) = ('', -1, -1);
while (1) {
  my $n = sysread($sock, $res, 65536, length $res);
  last unless $n;
  exit 0 if length($res) > 4_000_000;
  $end = index($res, "\\r\\n\\r\\n") if $end < 0;
  next if $end < 0;
  ($want) = substr($res, 0, $end) =~ /\\r\\ncontent-length: *(\\d+)\\r?(?:\\n|\\z)/i if $want < 0;
  last if defined $want && $want >= 0 && length($res) >= $end + 4 + $want;
}
alarm 0;
exit 0 if $end < 0;
my $head = substr($res, 0, $end) . "\\r\\n";
exit 0 unless $head =~ m{\\AHTTP/1\\.1 200 OK\\r\\n} && $head =~ /\\r\\nx-corral-hook: 1\\r\\n/i;
my $body = substr($res, $end + 4);
print $body, "\\n" if length $body;
exit 0;
`;
}

export function hookClientPath(dataDir: string): string {
  return join(dataDir, 'hooks', 'corral-hook');
}

/** Writes the client (0700) in the user's own data directory; returns its path. */
export function writeHookClient(dataDir: string, oneShotPrefix: string): string {
  ensureOwnDataDir(dataDir, 'hooks');
  const path = hookClientPath(dataDir);
  writeOwnFileAtomically(path, hookClientScript(dataDir, oneShotPrefix));
  chmodSync(path, 0o700);
  return path;
}

/**
 * Replaces a hook client of an earlier Corral (a bash script that posted the payload and the token to
 * whatever held a TCP port) with this one, which only talks to the user's own socket: agents' settings
 * written then still run `bash <data dir>/hooks/corral-hook`, and the new client runs under bash too.
 * Keeps the one-shot command the old client fell back to. Returns whether it replaced one; never throws.
 */
export function upgradeLegacyHookClient(dataDir: string): boolean {
  const path = hookClientPath(dataDir);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return false;
  }
  if (!text.includes('/dev/tcp/')) return false;
  const prefix = /^exec (.+) hook "\$agent" "\$event"$/m.exec(text)?.[1];
  if (!prefix) return false;
  try {
    writeHookClient(dataDir, prefix);
    return true;
  } catch {
    return false;
  }
}

/** The perl the client runs with: /usr/bin/perl where it is (macOS, Debian), else perl on PATH; null when none. */
export function perlProgram(
  env: Readonly<Record<string, string | undefined>> = process.env,
  candidates: readonly string[] = ['/usr/bin/perl'],
): string | null {
  return candidates.find(isExecutableFile) ?? executablesOnPath('perl', env)[0] ?? null;
}
