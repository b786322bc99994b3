// Shows what notification-policy.ts decides. Clicking opens the group; where the platform shows
// notification buttons (macOS), "Stop group" stops it right there.
import { Notification } from 'electron';
import type { Snapshot } from '../../shared/model';
import type { CorralService } from '../core/service';
import { decideNotification, INITIAL_NOTIFICATION_STATE, type Notice } from './notification-policy';

const SHOWS_ACTIONS = process.platform === 'darwin';

export class Notifier {
  private state = INITIAL_NOTIFICATION_STATE;
  /** Held so shown notifications are not garbage-collected before their click arrives. */
  private readonly live = new Set<Notification>();

  constructor(
    private readonly service: CorralService,
    private readonly openGroup: (groupId: string) => void,
  ) {}

  consider(snapshot: Snapshot): void {
    const decision = decideNotification(snapshot, this.state, {
      now: Date.now(),
      settings: this.service.settings().notifications,
    });
    this.state = decision.state;
    if (decision.notice && Notification.isSupported()) this.show(decision.notice);
  }

  private show(notice: Notice): void {
    const stop = SHOWS_ACTIONS ? notice.stop : null;
    const notification = new Notification({
      title: notice.title,
      body: notice.body,
      actions: stop ? [{ type: 'button', text: 'Stop group' }] : [],
    });
    this.live.add(notification);
    notification.on('click', () => this.openGroup(notice.groupId));
    notification.on('action', () => {
      if (stop) void this.service.stopGroup(stop).catch(() => this.openGroup(stop.groupId));
    });
    notification.on('close', () => this.live.delete(notification));
    notification.show();
  }
}
