import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureOwnDataDir, readOwnFile, writeOwnFileAtomically } from '../core/storage/own-data-dir';

/**
 * When each tool call began, recorded by the before-tool hook and read by the after-tool hook.
 *
 * The clock is the kernel's, not the wall's: `startKey` is the before-tool hook process's own start
 * stamp (/proc/<pid>/stat starttime, clock ticks since boot), taken right before the agent starts
 * the tool's shell, so "started after the tool call began" is `startKey >= start.startKey` in the
 * very unit every other process's start is measured in (wall-clock start times derived from /proc
 * carry up to a second of rounding). `pidCursor` is the kernel's last allocated pid then, so the
 * after-tool hook reads only the pids allocated since instead of the whole table.
 */
export interface ToolCallStart {
  startKey: number;
  pidCursor: number | null;
  /** ms since epoch, for pruning. */
  at: number;
}

export interface ToolCallKey {
  agent: string;
  sessionId: string;
  /** tool_use_id when the agent sends one, else the tool input (Gemini CLI sends no id). */
  callId: string;
}

/**
 * A file-name-safe digest: two FNV-1a passes (different offset bases) over the UTF-16 code units,
 * 64 bits in all. Not cryptographic, and need not be: it only names a record; node:crypto's hash
 * would add its own start-up cost to every hook.
 */
function digest(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x01000193) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

function dir(dataDir: string): string {
  return join(dataDir, 'hooks', 'tool-calls');
}

function fileOf(dataDir: string, key: ToolCallKey): string {
  return join(dir(dataDir), `${digest(`${key.agent}\0${key.sessionId}`)}-${digest(key.callId)}.json`);
}

export function recordToolCallStart(dataDir: string, key: ToolCallKey, start: ToolCallStart): void {
  ensureOwnDataDir(dataDir, 'hooks', 'tool-calls');
  writeOwnFileAtomically(fileOf(dataDir, key), JSON.stringify(start));
}

/**
 * The recorded start, removed from the store; null when none was recorded. Most after-tool hooks have
 * none (Claude Code's http hook is PostToolUse alone), so a missing record is found with one look that
 * throws nothing, before the folders are checked: checking them (and creating them) to read nothing
 * cost the running service more than the rest of the answer's file work.
 */
export function takeToolCallStart(dataDir: string, key: ToolCallKey): ToolCallStart | null {
  const path = fileOf(dataDir, key);
  if (!existsSync(path)) return null;
  ensureOwnDataDir(dataDir, 'hooks', 'tool-calls');
  const text = readOwnFile(path);
  if (text === null) return null;
  rmSync(path, { force: true });
  const v = JSON.parse(text) as Partial<ToolCallStart>;
  if (typeof v.startKey !== 'number' || typeof v.at !== 'number') return null;
  return { startKey: v.startKey, pidCursor: typeof v.pidCursor === 'number' ? v.pidCursor : null, at: v.at };
}

function answeredFileOf(dataDir: string, agent: string, sessionId: string): string {
  return join(dir(dataDir), `${digest(`${agent}\0${sessionId}`)}-answered.json`);
}

/**
 * The one-shot hook's memory of when it last answered a session's after-tool hook (in the unit of
 * ProcessRecord.startKey): a call with no before-tool record began after it (hook-call-start.ts). The
 * running service keeps its own in memory. Forgotten with the session's starts.
 */
export function recordSessionAnswered(
  dataDir: string,
  agent: string,
  sessionId: string,
  startKey: number,
): void {
  ensureOwnDataDir(dataDir, 'hooks', 'tool-calls');
  writeOwnFileAtomically(answeredFileOf(dataDir, agent, sessionId), JSON.stringify({ startKey }));
}

export function sessionAnswered(dataDir: string, agent: string, sessionId: string): number | undefined {
  const path = answeredFileOf(dataDir, agent, sessionId);
  if (!existsSync(path)) return undefined;
  ensureOwnDataDir(dataDir, 'hooks', 'tool-calls');
  try {
    const v = JSON.parse(readOwnFile(path) ?? 'null') as { startKey?: unknown } | null;
    return typeof v?.startKey === 'number' ? v.startKey : undefined;
  } catch {
    return undefined;
  }
}

/** Drops every start recorded for a session and its last answer (its end), so calls that never finished leave nothing. */
export function forgetSessionToolCalls(dataDir: string, agent: string, sessionId: string): void {
  const prefix = `${digest(`${agent}\0${sessionId}`)}-`;
  let names: string[];
  try {
    ensureOwnDataDir(dataDir, 'hooks', 'tool-calls');
    names = readdirSync(dir(dataDir));
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith(prefix)) rmSync(join(dir(dataDir), name), { force: true });
}
