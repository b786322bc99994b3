import { join } from 'node:path';
import { isRefusal, listUntrustedDir } from '../files/untrusted-file';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A day folder holding more session files than this is not searched. */
const MAX_DAY_FILES = 20_000;

/**
 * Where Codex keeps one thread's session file: `<CODEX_HOME>/sessions/YYYY/MM/DD/rollout-<local
 * time>-<thread id>.jsonl` (observed with Codex CLI 0.171). The thread id (CODEX_THREAD_ID) is a
 * UUIDv7, whose first 48 bits are its creation time in ms: only that day's folder and its neighbours
 * (the folder is named in local time) are listed, never the whole tree. Null when not found.
 */
export function locateCodexSession(codexHome: string, threadId: string): string | null {
  const id = threadId.toLowerCase();
  if (!UUID.test(id)) return null;
  const createdAt = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
  const suffix = `-${id}.jsonl`;
  for (const offset of [0, -DAY_MS, DAY_MS]) {
    const day = new Date(createdAt + offset);
    const dir = join(
      codexHome,
      'sessions',
      String(day.getFullYear()),
      String(day.getMonth() + 1).padStart(2, '0'),
      String(day.getDate()).padStart(2, '0'),
    );
    const names = listUntrustedDir(dir, MAX_DAY_FILES);
    if (isRefusal(names)) continue;
    const name = names.find((n) => n.startsWith('rollout-') && n.endsWith(suffix));
    if (name) return join(dir, name);
  }
  return null;
}
