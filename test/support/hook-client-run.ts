import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hookClientPath, perlProgram, writeHookClient } from '../../main/core/hooks-setup/hook-client-script';
import {
  buildNativeHookClient,
  cCompiler,
  nativeHookClientPath,
} from '../../main/core/hooks-setup/native-hook-client';
import { shellQuote } from '../../main/core/hooks-setup/shell-quote';
import { cleanEnv } from './spawned-groups';

// The one-shot fallback is the built hook entry (npm run build), as an installed Corral runs it.
export const BUILT_HOOK = fileURLToPath(new URL('../../out/main/corral-hook.js', import.meta.url));

/** The two hook clients `hooks install` may write: C where a compiler is, else perl. */
export type ClientKind = 'perl' | 'native';
export const CLIENT_KINDS: readonly ClientKind[] = ['perl', 'native'];

export interface ClientSetup {
  data: string;
  client: string;
  /** How an agent's hook command starts the client. */
  argv: string[];
  /** The pid the one-shot fallback ran as, one line each time it ran. */
  fallbackPids: string;
}

/**
 * A data directory (readable by others, as a HOME's usually is: only the hooks folder's 0700 keeps
 * them out) with the hook client written in it; its one-shot fallback notes its pid, then runs the
 * real one-shot hook. The caller removes `data`.
 */
export function setUpHookClient(kind: ClientKind = 'perl'): ClientSetup {
  const data = mkdtempSync(join(tmpdir(), 'corral-hook-client-'));
  chmodSync(data, 0o755);
  const fallbackPids = join(data, 'fallback-pids');
  const wrapper = join(data, 'one-shot.sh');
  writeFileSync(
    wrapper,
    `#!/bin/sh\necho $$ >> ${shellQuote(fallbackPids)}\nexec ${shellQuote(process.execPath)} ${shellQuote(BUILT_HOOK)} "$@"\n`,
    { mode: 0o700 },
  );
  const oneShot = `/bin/sh ${shellQuote(wrapper)}`;
  if (kind === 'perl') {
    const client = writeHookClient(data, oneShot);
    return { data, client, argv: [perlProgram()!, client], fallbackPids };
  }
  const built = buildNativeHookClient(data, oneShot, cCompiler(process.env)!);
  if (built.path === null) throw new Error(`the C hook client was not built: ${built.reason}`);
  return { data, client: built.path, argv: [built.path], fallbackPids };
}

export interface ClientRun {
  pid: number;
  code: number | null;
  out: string;
  err: string;
  ms: number;
}

/** Runs the client once as an agent would (`[perl] <client> hook <agent> <event>`, the payload on stdin). */
export async function runHookClient(
  s: ClientSetup,
  agent: string,
  event: string,
  payload: string,
  markers: Record<string, string> = {},
): Promise<ClientRun> {
  const t = performance.now();
  // Not spawnSync: the service under test may answer from this very process.
  const [program, ...args] = s.argv;
  const child = spawn(program!, [...args, 'hook', agent, event], {
    env: cleanEnv({ CORRAL_DATA_DIR: s.data, ...markers }),
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  child.stdin.on('error', () => undefined);
  child.stdin.end(payload);
  const code = await new Promise<number | null>((r) => child.on('close', r));
  return { pid: child.pid!, code, out, err, ms: performance.now() - t };
}

/** A Codex tool call's payload. */
export function codexPayload(session: string, event: string): string {
  return JSON.stringify({
    session_id: session,
    tool_use_id: 'call_1',
    tool_name: 'Bash',
    tool_input: { command: 'tail -f /dev/null &' },
    hook_event_name: event,
  });
}

/** Why the hook client's tests cannot run here, or undefined when they can. */
export const hookClientSkipReason: string | undefined =
  process.platform !== 'linux'
    ? 'the service answers hooks on Linux only'
    : !existsSync(BUILT_HOOK)
      ? `${BUILT_HOOK} is missing (npm run build)`
      : perlProgram() === null
        ? 'no perl'
        : undefined;

/** Why the tests of one kind of client cannot run here, or undefined when they can. */
export function clientKindSkipReason(kind: ClientKind): string | undefined {
  return (
    hookClientSkipReason ??
    (kind === 'native' && cCompiler(process.env) === null ? 'no C compiler' : undefined)
  );
}

/** The client command `hooks install` writes for this data directory here: C where a C compiler is on PATH, else perl. */
export function installedClientCommand(dataDir: string): string {
  return cCompiler(process.env)
    ? shellQuote(nativeHookClientPath(dataDir))
    : `${perlProgram()!} ${shellQuote(hookClientPath(dataDir))}`;
}
