import type { CorralStore } from '../store/create-store';

/** The group the tray asked to open: main loads the window with `#group=<id>`. */
export function groupFromHash(hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get('group') || null;
}

/** Opens the group named in the URL now and whenever main changes the fragment. */
export function followLocationGroup(win: Window, store: CorralStore): () => void {
  const apply = () => {
    const groupId = groupFromHash(win.location.hash);
    if (groupId === null) return;
    store.getState().setPage('overview');
    store.getState().selectGroup(groupId);
  };
  apply();
  win.addEventListener('hashchange', apply);
  return () => win.removeEventListener('hashchange', apply);
}
