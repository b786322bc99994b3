import { dirname } from 'node:path';
import { isRefusal, entryKind } from '../files/untrusted-file';

/**
 * The project a directory belongs to: the nearest enclosing git work tree (a directory holding a
 * `.git` directory, or a `.git` file as worktrees and submodules have), else the directory itself.
 * Answers are cached per directory; `forget()` drops them (a repository created later is then found).
 */
export class ProjectRoots {
  private readonly cache = new Map<string, string>();

  constructor(private readonly maxEntries = 4096) {}

  projectOf(cwd: string): string {
    const known = this.cache.get(cwd);
    if (known !== undefined) return known;
    const found = enclosingWorkTree(cwd) ?? cwd;
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    this.cache.set(cwd, found);
    return found;
  }

  forget(): void {
    this.cache.clear();
  }
}

function enclosingWorkTree(start: string): string | null {
  // The kernel marks a working directory removed since with " (deleted)": that tree no longer exists.
  if (!start.startsWith('/') || start.endsWith(' (deleted)')) return null;
  for (let dir = start; ; dir = dirname(dir)) {
    // Only looked at, never opened. A `.git` that cannot be looked at (a path too long, a loop, no
    // permission) is no work tree: the walk goes on up.
    if (!isRefusal(entryKind(`${dir === '/' ? '' : dir}/.git`))) return dir;
    if (dir === '/') return null;
  }
}
