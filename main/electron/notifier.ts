// Shows what notification-policy.ts decides and carries out what notice-reaction.ts decides. Clicking
// opens the group; where the platform shows notification buttons (macOS, signed builds), "Stop group"
// asks the same confirmation as the tray. An unsigned macOS build cannot show notifications at all
// (Electron 42+ emits 'failed'), nor can one the user denied: the tray's menu says so, once.
import { Notification } from 'electron';
import type { MonitorEvent, Snapshot } from '../../shared/model';
import type { CorralService } from '../core/service';
import type { StopRequest } from './confirm-stop';
import { noticeReaction, type NoticeEvent } from './notice-reaction';
import { decideNotification, INITIAL_NOTIFICATION_STATE, type Notice } from './notification-policy';
import { decidePolicyNotice, INITIAL_POLICY_NOTICE_STATE } from './policy-notice';

const SHOWS_ACTIONS = process.platform === 'darwin';

export class Notifier {
  private state = INITIAL_NOTIFICATION_STATE;
  private policyState = INITIAL_POLICY_NOTICE_STATE;
  /** Held so shown notifications are not garbage-collected before their click arrives. */
  private readonly live = new Set<Notification>();

  constructor(
    private readonly service: CorralService,
    private readonly openGroup: (groupId: string) => void,
    private readonly confirmStop: (request: StopRequest) => Promise<void>,
    /** Told that notifications cannot be shown (denied, or an unsigned build). */
    private readonly notificationsBlocked: () => void = () => undefined,
  ) {}

  consider(snapshot: Snapshot): void {
    const decision = decideNotification(snapshot, this.state, {
      now: Date.now(),
      settings: this.service.settings().notifications,
    });
    this.state = decision.state;
    if (!decision.notice) return;
    if (Notification.isSupported()) this.show(decision.notice);
    else this.openGroup(decision.notice.groupId);
  }

  /** A policy's event (policy-notice.ts decides whether it is shown). */
  considerEvent(event: MonitorEvent): void {
    const decision = decidePolicyNotice(event, this.policyState, {
      now: Date.now(),
      settings: this.service.settings().notifications,
    });
    this.policyState = decision.state;
    if (!decision.notice) return;
    const notice: Notice = { ...decision.notice, stop: null };
    if (Notification.isSupported()) this.show(notice);
    else this.openGroup(notice.groupId);
  }

  private show(notice: Notice): void {
    const offeredStop = SHOWS_ACTIONS && notice.stop !== null;
    const notification = new Notification({
      title: notice.title,
      body: notice.body,
      actions: offeredStop ? [{ type: 'button', text: 'Stop group…' }] : [],
    });
    this.live.add(notification);
    const react = (event: NoticeEvent): void => {
      const reaction = noticeReaction(event, notice, offeredStop);
      switch (reaction.kind) {
        case 'open-group':
          return this.openGroup(reaction.groupId);
        case 'confirm-stop':
          void this.confirmStop(reaction);
          return;
        case 'forget':
          this.live.delete(notification);
          return;
        case 'notifications-blocked':
          this.live.delete(notification);
          return this.notificationsBlocked();
      }
    };
    notification.on('click', () => react('click'));
    notification.on('action', () => react('action'));
    notification.on('failed', (_event, error) => {
      console.error('corral: a notification could not be shown:', error);
      react('failed');
    });
    notification.on('close', () => react('close'));
    notification.show();
  }
}
