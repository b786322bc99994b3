import type { GroupView, Incident } from '../../shared/model';

/**
 * A one-shot `ps` reads the table once and cannot measure a birth rate: a group a watching Corral
 * (the app, `corral watch`, a service) recorded as storming, on its open incident, is shown so, with
 * the rate it recorded.
 */
export function withRecordedStorms(
  groups: readonly GroupView[],
  incidents: readonly Incident[],
): GroupView[] {
  return groups.map((g) => {
    if (g.spawnStorm) return g;
    const storm = incidents.find(
      (i) => i.groupId === g.id && i.end === 'open' && i.spawnStorm && i.spawnStorm.endedAt === undefined,
    )?.spawnStorm;
    if (!storm) return g;
    const flags = g.flags.includes('spawn-storm') ? g.flags : [...g.flags, 'spawn-storm' as const];
    return { ...g, flags, spawnStorm: storm };
  });
}
