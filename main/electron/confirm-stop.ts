// The one way the desktop app stops a group: a confirmation, then the service's teardown. The tray and
// notifications both come here, so a Stop never skips the question.
import { dialog } from 'electron';
import type { CorralService } from '../core/service';
import type { MainWindow } from './main-window';

export interface StopRequest {
  groupId: string;
  orphansOnly: boolean;
  description: string;
}

export async function confirmAndStop(
  service: CorralService,
  window: MainWindow,
  { groupId, orphansOnly, description }: StopRequest,
): Promise<void> {
  const { response } = await dialog.showMessageBox({
    type: 'warning',
    buttons: ['Stop', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    message: orphansOnly ? 'Stop the leftover processes in this group?' : 'Stop this process group?',
    detail: `${description}\n\nCorral sends SIGTERM, then SIGKILL to what is still running after the grace period.`,
  });
  if (response !== 0) return;
  try {
    const result = await service.stopGroup({ groupId, orphansOnly });
    if (result.refused) dialog.showErrorBox('Corral did not stop the group', result.refused);
    else if (!result.clean) window.show(groupId);
  } catch (err) {
    dialog.showErrorBox('Corral could not stop the group', err instanceof Error ? err.message : String(err));
  }
}
