import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { resolveDataDir } from '../storage/data-dir';
import { INCIDENTS_FILE, IncidentStore } from '../storage/incident-store';
import type { KnownMember } from './resolve-group-id';

/**
 * The processes the incident history records under a group id: what a one-shot command, which has no
 * memory of its own, knows Corral saw in that group. Empty when there is no history to read.
 */
export function rememberedMembers(
  groupId: string,
  dataDir = resolveDataDir(process.env, process.platform, homedir()),
): KnownMember[] {
  if (!existsSync(join(dataDir, INCIDENTS_FILE))) return [];
  let store: IncidentStore | null = null;
  try {
    store = IncidentStore.open(dataDir, { role: 'reader' });
    return store
      .list({ groupId, limit: 10_000 })
      .flatMap((i) => i.processes.map((p) => ({ pid: p.pid, startKey: p.startKey })));
  } catch {
    return [];
  } finally {
    store?.close();
  }
}
