// On macOS, replacing a tray's context menu closes it while it is open, so a menu redrawn every second
// (live CPU figures) makes "Stop group…" hard to reach exactly when it matters. Between the menu's
// 'menu-will-show' and 'menu-will-close' the newest menu is held, and drawn once the menu closes.

export class MenuUpdateGate<T> {
  private isOpen = false;
  private held: T | null = null;

  /** The menu to draw now, or null while the open menu must not be replaced (the newest is kept). */
  offer(menu: T): T | null {
    if (!this.isOpen) return menu;
    this.held = menu;
    return null;
  }

  opened(): void {
    this.isOpen = true;
  }

  /** The menu held while it was open, to draw now; null when nothing changed meanwhile. */
  closed(): T | null {
    this.isOpen = false;
    const held = this.held;
    this.held = null;
    return held;
  }
}
