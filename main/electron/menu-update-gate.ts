// On macOS, replacing a tray's context menu closes it while it is open, so a menu redrawn every second
// (live CPU figures) makes "Stop group…" hard to reach exactly when it matters. While the menu is open
// the newest menu is held, and drawn once the menu has closed.
//
// Electron's events do not say when the whole menu closed once a submenu was visited
// (shell/browser/ui/cocoa/electron_menu_controller.mm, the tray's menu has no popup-close callback):
// `menuWillOpen:` emits 'menu-will-show' for the root and for every submenu (one delegate for all);
// `menuDidClose:` emits 'menu-will-close' for the root or a first-level submenu, but only while its
// `isMenuOpen_` flag is set, and clears the flag. So moving from one group's submenu to the next reads
// show, show, close, show, close, and the root's own close, coming after a submenu's, is never emitted.
// A close after the root's show alone is the root's: the held menu is drawn at once. A close after a
// submenu was shown may leave the root open: the held menu waits until no menu opened for `settleMs`.

export interface GateTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: GateTimers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Long enough to move from one submenu to the next; short enough that stale figures are not noticed. */
export const MENU_SETTLE_MS = 1500;

export class MenuUpdateGate<T> {
  /** 'menu-will-show' events since the menu was last known closed: 0 while closed. */
  private shows = 0;
  private held: T | null = null;
  private settling: unknown = null;

  constructor(
    private readonly draw: (menu: T) => void,
    private readonly settleMs = MENU_SETTLE_MS,
    private readonly timers: GateTimers = realTimers,
  ) {}

  /** Draws the menu now, or holds it (the newest only) while the menu may be open. */
  offer(menu: T): void {
    if (this.shows === 0) this.draw(menu);
    else this.held = menu;
  }

  /** 'menu-will-show': the root or a submenu opened. */
  opened(): void {
    this.cancelSettling();
    this.shows += 1;
  }

  /** 'menu-will-close': the root or a first-level submenu closed. */
  closed(): void {
    if (this.shows === 0) return;
    this.cancelSettling();
    if (this.shows === 1) this.release();
    else this.settling = this.timers.set(() => this.release(), this.settleMs);
  }

  dispose(): void {
    this.cancelSettling();
  }

  private release(): void {
    this.settling = null;
    this.shows = 0;
    const held = this.held;
    this.held = null;
    if (held !== null) this.draw(held);
  }

  private cancelSettling(): void {
    if (this.settling === null) return;
    this.timers.clear(this.settling);
    this.settling = null;
  }
}
