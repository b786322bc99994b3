// The tray's "Install command-line tool…": plans with cli-install.ts, asks for privileges only when no
// directory on the user's PATH is theirs to write, and says where `corral` went.
import { execFile } from 'node:child_process';
import { homedir } from 'node:os';
import { app, dialog } from 'electron';
import {
  appLocationProblem,
  existingCliProblem,
  installCliPrivileged,
  installCliWrapper,
  planCliInstall,
} from './cli-install';

export async function installCommandLineTool(): Promise<void> {
  const exe = app.getPath('exe');
  const misplaced = appLocationProblem(exe, app.isInApplicationsFolder());
  if (misplaced) {
    const { response } = await dialog.showMessageBox({
      type: 'warning',
      message: 'Move Corral to Applications first',
      detail: misplaced,
      buttons: ['Move to Applications', 'Cancel'],
      defaultId: 0,
      cancelId: 1,
    });
    // Moving relaunches the app from Applications; the user installs the command from there.
    if (response === 0) app.moveToApplicationsFolder();
    return;
  }
  // process.env.PATH already holds the login shell's PATH (index.ts adoptLoginShellPath).
  const plan = planCliInstall(process.env.PATH ?? '', homedir());
  try {
    const problem = existingCliProblem(plan.target);
    if (problem) throw new Error(problem);
    if (plan.privileged) {
      await installCliPrivileged(
        plan.target,
        exe,
        app.getPath('temp'),
        (script) =>
          new Promise<void>((resolve, reject) =>
            execFile('osascript', ['-e', script], (err) => (err ? reject(err) : resolve())),
          ),
      );
    } else {
      installCliWrapper(plan.target, exe);
    }
  } catch (err) {
    dialog.showErrorBox('Install command-line tool', err instanceof Error ? err.message : String(err));
    return;
  }
  await dialog.showMessageBox({
    type: 'info',
    message: `corral is installed at ${plan.target}`,
    detail: 'Open a new terminal and run `corral ps`. Hooks set-up in Settings finds it there.',
  });
}
