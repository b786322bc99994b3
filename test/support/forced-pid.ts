import { accessSync, constants, readFileSync, writeFileSync } from 'node:fs';
import { groupMembers } from './proc';
import { spawnGroup, type SpawnedGroup } from './spawned-groups';
import { waitFor } from './wait-for';

const NS_LAST_PID = '/proc/sys/kernel/ns_last_pid';

/**
 * Why a pid cannot be forced here, or null when it can: only root inside the test run's own PID
 * namespace (tini as its pid 1, see scripts/test.sh) may move the namespace's pid counter.
 */
export const cannotForcePids: string | null = (() => {
  if (process.platform !== 'linux') return 'ns_last_pid is Linux only';
  if (process.getuid?.() !== 0) return 'writing ns_last_pid needs root';
  try {
    if (readFileSync('/proc/1/comm', 'utf8').trim() !== 'tini')
      return 'not inside the test PID namespace (pid 1 is not tini)';
    accessSync(NS_LAST_PID, constants.W_OK);
  } catch (err) {
    return `ns_last_pid cannot be written (${String(err)})`;
  }
  return null;
})();

/**
 * Starts `script` as spawnGroup does, as a process whose pid (and so PGID and SID) is exactly `pid`:
 * the namespace's pid counter is set just below it before each fork. Another fork in between (a
 * thread, a parallel fixture) takes the number first: that try is removed by its PGID and tried again.
 */
export async function spawnGroupWithPid(
  pid: number,
  script: string,
  options?: Parameters<typeof spawnGroup>[1],
): Promise<SpawnedGroup> {
  for (let attempt = 0; attempt < 50; attempt++) {
    await waitFor(`pid ${pid} free (its group empty)`, () => groupMembers(pid).length === 0);
    writeFileSync(NS_LAST_PID, String(pid - 1));
    const group = spawnGroup(script, options);
    if (group.pid === pid) return group;
    process.kill(-group.pgid, 'SIGKILL');
    await waitFor(`try ${group.pid} removed`, () => groupMembers(group.pgid).length === 0);
  }
  throw new Error(`could not start a process as pid ${pid}`);
}
