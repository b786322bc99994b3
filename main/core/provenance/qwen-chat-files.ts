import { join } from 'node:path';
import { entryKind, isRefusal, listUntrustedDir } from '../files/untrusted-file';

/** A projects folder holding more entries than this is not scanned for a session. */
const MAX_PROJECT_DIRS = 5000;

/**
 * Where Qwen Code keeps one session's chat records (observed with 0.24.4):
 * `<project dir>/chats/<session id>.jsonl`, the project dir being `QWEN_CODE_PROJECT_DIR` from the tool
 * call's own environment (`<home>/.qwen/projects/<cwd with every non-alphanumeric replaced by ->`);
 * without it, the session is looked for in every project folder under `<home>/.qwen/projects`.
 * Null when not found.
 */
export function locateQwenChat(
  projectDir: string | null,
  home: string | null,
  sessionId: string,
): string | null {
  if (!/^[\w.-]{1,128}$/.test(sessionId)) return null; // never a path out of the chats folder
  const file = `${sessionId}.jsonl`;
  if (projectDir) {
    const path = join(projectDir, 'chats', file);
    if (isFile(path)) return path;
  }
  if (!home) return null;
  const projects = join(home, '.qwen', 'projects');
  const dirs = listUntrustedDir(projects, MAX_PROJECT_DIRS);
  if (isRefusal(dirs)) return null;
  for (const dir of dirs) {
    const path = join(projects, dir, 'chats', file);
    if (isFile(path)) return path;
  }
  return null;
}

/** Never throws: a symlink loop or a path too long is no chat file (the reader checks the file itself). */
function isFile(path: string): boolean {
  return entryKind(path) === 'file';
}
