import type { MenuItemConstructorOptions } from 'electron';
import type { TrayAction, TrayMenuItem } from './tray-menu-model';

/** Turns the plain menu model into an Electron menu template; no decisions are made here. */
export function toMenuTemplate(
  items: TrayMenuItem[],
  onAction: (action: TrayAction) => void,
): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    switch (item.type) {
      case 'label':
        return { label: item.label, enabled: false };
      case 'separator':
        return { type: 'separator' };
      case 'action':
        return { label: item.label, click: () => onAction(item.action) };
      case 'checkbox':
        return {
          label: item.label,
          type: 'checkbox',
          checked: item.checked,
          click: () => onAction(item.action),
        };
      case 'submenu':
        return { label: item.label, submenu: toMenuTemplate(item.items, onAction) };
    }
  });
}
