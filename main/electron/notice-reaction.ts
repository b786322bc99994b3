// What Corral does when a desktop notification reports something, as a pure decision. Notification
// buttons need a signed app (from Electron 42 macOS uses UNNotification: an unsigned build emits
// 'failed' and shows nothing), so nothing may depend on the Stop button: a click opens the group, a
// Stop asks for the same confirmation as the tray before anything is signalled, and a failure is said in
// the menu (notifications are off), never by opening the window behind whatever app is in front.
import type { Notice } from './notification-policy';

export type NoticeEvent = 'click' | 'action' | 'failed' | 'close';

export type NoticeReaction =
  | { kind: 'open-group'; groupId: string }
  | { kind: 'confirm-stop'; groupId: string; orphansOnly: boolean; description: string }
  | { kind: 'forget' }
  | { kind: 'notifications-blocked' };

export function noticeReaction(event: NoticeEvent, notice: Notice, offeredStop: boolean): NoticeReaction {
  switch (event) {
    case 'click':
      return { kind: 'open-group', groupId: notice.groupId };
    case 'failed':
      return { kind: 'notifications-blocked' };
    case 'action':
      // An action that was not offered (or a notice that has no single group to stop) opens the window.
      if (!offeredStop || !notice.stop) return { kind: 'open-group', groupId: notice.groupId };
      return {
        kind: 'confirm-stop',
        groupId: notice.stop.groupId,
        orphansOnly: notice.stop.orphansOnly,
        description: `${notice.title}\n${notice.body}`,
      };
    case 'close':
      return { kind: 'forget' };
  }
}
