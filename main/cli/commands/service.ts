import { homedir, userInfo } from 'node:os';
import { COMMAND_SPECS } from '../command-specs';
import { parseCommandArgs } from '../parse-command-args';
import type { Settings } from '../../../shared/model';
import { corralCommandArgv, servicePath } from '../../core/facade/setup';
import {
  installUserService,
  runManager,
  uninstallUserService,
  userServiceStatus,
  type ServicePlace,
  type ServiceReport,
} from '../../core/facade/setup';
import { UsageError } from '../../common/usage-error';

function place(): ServicePlace {
  return {
    platform: process.platform,
    env: process.env,
    home: homedir(),
    uid: userInfo().uid,
    run: runManager,
  };
}

function describe(r: ServiceReport, out: (t: string) => void): void {
  for (const note of r.notes) out(note);
  if (!r.installed) {
    out(`corral watch is not installed as a ${r.kind} user service (${r.path})`);
    return;
  }
  const running = r.running === null ? 'cannot tell whether it runs' : r.running ? 'running' : 'not running';
  out(`corral watch: ${r.kind} user service ${r.path}, ${r.enabled ? 'enabled' : 'not enabled'}, ${running}`);
  if (r.command) out(`command: ${r.command}`);
  if (r.missingCommand) {
    out(`its command no longer exists (${r.missingCommand}): run \`corral service install\` to repair it`);
  }
}

/**
 * `corral service install|uninstall|status`: `corral watch` as the user's own service (a systemd user
 * unit on Linux, a LaunchAgent on macOS), so incidents, policies and metrics go on without the app.
 * Exit 1 when the file is someone else's (left untouched) or the platform has no such service.
 */
export async function runService(
  args: string[],
  _settings: Settings,
  out: (text: string) => void,
): Promise<number> {
  const [action, ...rest] = args;
  const { values } = parseCommandArgs(COMMAND_SPECS.service, rest, action);
  if (action !== 'install' && action !== 'uninstall' && action !== 'status') {
    throw new UsageError(`expected install, uninstall or status, got '${action ?? ''}'`);
  }
  let report: ServiceReport;
  try {
    const where = place();
    if (action === 'install') {
      const dataDir = process.env.CORRAL_DATA_DIR?.trim();
      const configPath = process.env.CORRAL_CONFIG?.trim();
      report = installUserService(where, {
        argv: corralCommandArgv(process.env),
        path: servicePath(),
        ...(dataDir ? { dataDir } : {}),
        ...(configPath ? { configPath } : {}),
      });
    } else if (action === 'uninstall') report = uninstallUserService(where);
    else report = userServiceStatus(where);
  } catch (err) {
    process.stderr.write(`corral service: ${(err as Error).message}\n`);
    return 1;
  }
  if (values.json) out(JSON.stringify(report));
  else describe(report, out);
  return 0;
}
