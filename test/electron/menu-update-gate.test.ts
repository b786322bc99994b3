import { beforeEach, describe, expect, it } from 'vitest';
import { MenuUpdateGate, type GateTimers } from '../../main/electron/menu-update-gate';

// A stand-in for Electron's ElectronMenuController (shell/browser/ui/cocoa/electron_menu_controller.mm,
// Electron 45), the NSMenuDelegate of a tray's menu and of all its submenus, which turns AppKit's
// delegate calls into the Menu's events as the real one does:
//   menuWillOpen:  isMenuOpen_ = YES; model_->MenuWillShow()            -> 'menu-will-show'
//   menuDidClose:  if (!isMenuOpen_) return;
//                  if (menu != menu_ && (has_close_cb || menu.supermenu != menu_)) return;
//                  isMenuOpen_ = NO; model_->MenuWillClose()            -> 'menu-will-close'
// A tray's context menu (Tray.setContextMenu) has no popup-close callback (has_close_cb false).
interface FakeNSMenu {
  name: string;
  supermenu: FakeNSMenu | null;
}

class MenuControllerStandIn {
  private isMenuOpen = false;
  constructor(
    private readonly menu: FakeNSMenu,
    private readonly emit: (event: 'menu-will-show' | 'menu-will-close') => void,
  ) {}

  menuWillOpen(_menu: FakeNSMenu): void {
    this.isMenuOpen = true;
    this.emit('menu-will-show');
  }

  menuDidClose(menu: FakeNSMenu): void {
    if (!this.isMenuOpen) return;
    const hasCloseCallback = false;
    if (menu !== this.menu && (hasCloseCallback || menu.supermenu !== this.menu)) return;
    this.isMenuOpen = false;
    this.emit('menu-will-close');
  }
}

class ManualTimers implements GateTimers {
  now = 0;
  private pending = new Map<number, { at: number; run: () => void }>();
  private next = 1;
  set(run: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.set(id, { at: this.now + ms, run });
    return id;
  }
  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  advance(ms: number): void {
    this.now += ms;
    for (const [id, timer] of [...this.pending]) {
      if (timer.at > this.now) continue;
      this.pending.delete(id);
      timer.run();
    }
  }
}

const root: FakeNSMenu = { name: 'root', supermenu: null };
const groupA: FakeNSMenu = { name: 'sleep 600 — 99%', supermenu: root };
const groupB: FakeNSMenu = { name: 'next dev — 0%', supermenu: root };
const nested: FakeNSMenu = { name: 'nested', supermenu: groupA };

let drawn: string[];
let timers: ManualTimers;
let gate: MenuUpdateGate<string>;
let cocoa: MenuControllerStandIn;

beforeEach(() => {
  drawn = [];
  timers = new ManualTimers();
  gate = new MenuUpdateGate<string>((menu) => drawn.push(menu), 1500, timers);
  cocoa = new MenuControllerStandIn(root, (event) =>
    event === 'menu-will-show' ? gate.opened() : gate.closed(),
  );
});

describe('MenuUpdateGate under Electron’s real tray-menu event order', () => {
  it('draws at once while the menu is closed', () => {
    gate.offer('a');
    expect(drawn).toEqual(['a']);
  });

  it('root opened and closed without a submenu: the newest held menu is drawn at the close', () => {
    cocoa.menuWillOpen(root);
    gate.offer('b');
    gate.offer('c');
    expect(drawn).toEqual([]);
    cocoa.menuDidClose(root);
    expect(drawn).toEqual(['c']);
    gate.offer('d');
    expect(drawn).toEqual(['c', 'd']);
  });

  it('has nothing to draw when nothing changed while the menu was open', () => {
    cocoa.menuWillOpen(root);
    cocoa.menuDidClose(root);
    expect(drawn).toEqual([]);
  });

  // AppKit closes the submenu being left before it opens the next (the order NSMenu tracking shows
  // submenus in; not recorded on a Mac by this project).
  it("moving from one group's submenu to the next never releases the menu", () => {
    cocoa.menuWillOpen(root);
    cocoa.menuWillOpen(groupA);
    gate.offer('held');
    timers.advance(700);
    cocoa.menuDidClose(groupA);
    timers.advance(400); // the pointer crosses to the next group's row; AppKit opens its submenu
    cocoa.menuWillOpen(groupB);
    gate.offer('newest');
    timers.advance(10_000); // the user reads group B's submenu
    expect(drawn).toEqual([]);
    cocoa.menuDidClose(groupB);
    cocoa.menuDidClose(root);
    timers.advance(1500);
    expect(drawn).toEqual(['newest']);
  });

  it('the whole menu closed with a submenu open: drawn once no menu opened for the settle time', () => {
    cocoa.menuWillOpen(root);
    cocoa.menuWillOpen(groupA);
    gate.offer('held');
    cocoa.menuDidClose(groupA); // AppKit closes the submenu first...
    cocoa.menuDidClose(root); // ...and the root's close is not emitted (isMenuOpen_ already NO)
    timers.advance(1499);
    expect(drawn).toEqual([]);
    timers.advance(1);
    expect(drawn).toEqual(['held']);
    gate.offer('after');
    expect(drawn).toEqual(['held', 'after']);
  });

  it('back from a submenu to the root: a submenu opened again in time keeps the menu held', () => {
    cocoa.menuWillOpen(root);
    cocoa.menuWillOpen(groupA);
    gate.offer('held');
    cocoa.menuDidClose(groupA);
    timers.advance(1000);
    cocoa.menuWillOpen(groupB);
    timers.advance(5000);
    expect(drawn).toEqual([]);
    cocoa.menuDidClose(groupB);
    cocoa.menuDidClose(root);
    timers.advance(1500);
    expect(drawn).toEqual(['held']);
  });

  it('a second-level submenu closing emits nothing and changes nothing', () => {
    cocoa.menuWillOpen(root);
    cocoa.menuWillOpen(groupA);
    cocoa.menuWillOpen(nested);
    gate.offer('held');
    cocoa.menuDidClose(nested);
    timers.advance(10_000);
    expect(drawn).toEqual([]);
  });
});
