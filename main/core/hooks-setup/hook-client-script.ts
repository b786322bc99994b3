import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureOwnDataDir, writeOwnFileAtomically } from '../storage/own-data-dir';
import { hookEndpointPath } from './hook-endpoint';
import { shellQuote } from './shell-quote';

/** How long the client waits for each read of the running Corral's answer (bash 3.2 takes whole seconds). */
export const CLIENT_READ_TIMEOUT_S = 1;

/**
 * The hook client for agents that run hooks as commands: a bash script, because bash alone opens a
 * TCP connection (/dev/tcp) and reads with a deadline (read -t), so asking the running Corral costs
 * one bash process (a few ms) instead of Node's ~40 ms start-up before any work; curl, the cheapest
 * existing client for a Unix socket, cost about a third of Node here (measured, docs/hooks-service.md).
 * It connects to 127.0.0.1:<port> from the endpoint file, posts the payload with the token (never on a
 * command line), and prints the answer only when it is Corral's (`x-corral-hook: 1`, status 200).
 * When there is nothing to ask (no endpoint file, nothing listening) the one-shot hook replaces the
 * client (exec) and reads the untouched payload itself: no copy of it, no bash left waiting, so without
 * a service a call costs what the one-shot hook alone does, plus bash's start. When the service fails
 * after the connection (silent past the deadline, refused, garbage) the one-shot hook runs with the
 * payload the client read. Pure: text in, text out.
 */
export function hookClientScript(endpointFile: string, oneShotPrefix: string): string {
  const t = CLIENT_READ_TIMEOUT_S;
  return `#!/bin/bash
# Corral's hook client, written by \`corral hooks install\`: asks the running Corral, else runs the
# one-shot hook. Usage: corral-hook hook <agent> <event>, the agent's JSON payload on stdin.
LC_ALL=C
agent=$2
event=$3
connect() {
  IFS=' ' read -r port token < ${shellQuote(endpointFile)} || return 1
  case $port in ''|*[!0-9]*) return 1 ;; esac
  exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
}
answer() {
  printf 'POST /hook/%s/%s HTTP/1.1\\r\\nHost: 127.0.0.1:%s\\r\\nx-corral-token: %s\\r\\nContent-Type: application/json\\r\\nx-corral-client: %s %s\\r\\nContent-Length: %s\\r\\nConnection: close\\r\\n\\r\\n%s' \\
    "$agent" "$event" "$port" "$token" "$$" "$PPID" "\${#payload}" "$payload" >&3 || return 1
  IFS= read -r -t ${t} status <&3 || return 1
  [ "\${status%$'\\r'}" = 'HTTP/1.1 200 OK' ] || return 1
  local line ours= ended=
  while IFS= read -r -t ${t} line <&3; do
    line=\${line%$'\\r'}
    [ -z "$line" ] && ended=1 && break
    [ "$line" = 'x-corral-hook: 1' ] && ours=1
  done
  [ -n "$ended" ] && [ -n "$ours" ] || return 1
  body=
  IFS= read -r -d '' -t ${t} body <&3
  [ $? -le 1 ] || return 1
  [ -n "$body" ] && printf '%s\\n' "$body"
  return 0
}
if [ "$1" = hook ] && connect 2>/dev/null; then
  IFS= read -r -d '' payload
  if answer 2>/dev/null; then exit 0; fi
  exec 3<&-
  printf '%s' "$payload" | ${oneShotPrefix} hook "$agent" "$event"
  exit 0
fi
# Nothing to ask: the one-shot hook takes this process over, the payload still unread on stdin.
shopt -s execfail
exec ${oneShotPrefix} hook "$agent" "$event"
exit 0
`;
}

export function hookClientPath(dataDir: string): string {
  return join(dataDir, 'hooks', 'corral-hook');
}

/** Writes the client (0700) in the user's own data directory; returns its path. */
export function writeHookClient(dataDir: string, oneShotPrefix: string): string {
  ensureOwnDataDir(dataDir, 'hooks');
  const path = hookClientPath(dataDir);
  writeOwnFileAtomically(path, hookClientScript(hookEndpointPath(dataDir), oneShotPrefix));
  chmodSync(path, 0o700);
  return path;
}

/** The bash the client runs with: /bin/bash where it is (Linux, macOS), else bash on PATH. */
export function bashProgram(): string {
  return existsSync('/bin/bash') ? '/bin/bash' : 'bash';
}
