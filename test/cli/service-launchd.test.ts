// `corral service install` on macOS against a stand-in for launchctl that behaves as launchd does when a
// job is booted out and bootstrapped again at once: `bootout` returns while launchd still tears the old
// job down, and a `bootstrap` meanwhile fails with "Bootstrap failed: 5: Input/output error" (seen for
// about 5 s). macOS cannot run here; the stand-in keeps launchd's answers, not a forgiving version of them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAUNCHD_LABEL } from '../../main/core/user-service/launchd-plist';
import {
  installUserService,
  userServiceStatus,
  type ManagerRun,
  type ServicePlace,
} from '../../main/core/user-service/user-service';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs';

const temp = tempDirsRemovedAfterEach();

/** launchd for one user: jobs loaded, and how many more bootstraps fail while a bootout finishes. */
function launchdStandIn(busyBootstraps: number, lastExit = '(never exited)') {
  const loaded = new Set<string>();
  let tearingDown = 0;
  const calls: string[] = [];
  const run: ManagerRun = (cmd, args) => {
    calls.push([cmd, ...args].join(' '));
    const [verb, target, path] = args;
    if (verb === 'bootout') {
      const had = loaded.delete(target!);
      if (had) tearingDown = busyBootstraps;
      return had ? { status: 0, output: '' } : { status: 3, output: 'Boot-out failed: 3: No such process' };
    }
    if (verb === 'bootstrap') {
      if (tearingDown > 0) {
        tearingDown--;
        return { status: 5, output: 'Bootstrap failed: 5: Input/output error' };
      }
      loaded.add(`${target}/${LAUNCHD_LABEL}`);
      void path;
      return { status: 0, output: '' };
    }
    if (verb === 'print') {
      if (!loaded.has(target!))
        return { status: 113, output: `Could not find service "${LAUNCHD_LABEL}" in domain` };
      return {
        status: 0,
        output: `${target} = {\n\tactive count = 0\n\tstate = not running\n\truns = 3\n\tlast exit code = ${lastExit}\n}`,
      };
    }
    return { status: 0, output: '' };
  };
  return { run, calls, loaded };
}

function place(run: ManagerRun, waits: number[]): ServicePlace {
  return {
    platform: 'darwin',
    env: {},
    home: temp('corral-launchd-'),
    uid: 501,
    run,
    sleep: (ms) => waits.push(ms),
  };
}

const spec = { argv: ['/opt/homebrew/bin/corral'], path: '/opt/homebrew/bin:/usr/bin:/bin' };

describe('corral service install on launchd', () => {
  it('a reinstall waits out the bootout and ends with the job loaded', () => {
    const launchd = launchdStandIn(8);
    const waits: number[] = [];
    const where = place(launchd.run, waits);
    installUserService(where, spec);
    const again = installUserService(where, spec);
    expect(again.enabled).toBe(true);
    expect(again.notes).toContain(`loaded ${LAUNCHD_LABEL}`);
    expect(launchd.calls.filter((c) => c.startsWith('launchctl bootstrap'))).toHaveLength(1 + 9);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(10_000);
    expect(readFileSync(join(where.home, 'Library/LaunchAgents/dev.corral.watch.plist'), 'utf8')).toContain(
      '<string>Standard</string>',
    );
  });

  it('fails, instead of reporting success, when the job never loads', () => {
    const launchd = launchdStandIn(1_000);
    const where = place(launchd.run, []);
    installUserService(where, spec);
    expect(() => installUserService(where, spec)).toThrow(/launchctl bootstrap failed: Bootstrap failed: 5/);
    expect(launchd.loaded.size).toBe(0);
  });

  it('status says how a loaded job that is not running last ended', () => {
    const launchd = launchdStandIn(0, '127');
    const where = place(launchd.run, []);
    installUserService(where, spec);
    const status = userServiceStatus(where);
    expect(status).toMatchObject({ enabled: true, running: false, lastExit: '127' });
    expect(status.notes.join('\n')).toContain('last exited with 127');
  });
});
