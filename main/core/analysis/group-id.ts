import { GROUP_ID_PATTERN } from '../../../shared/group-id';

/** A group id names one process group for its whole life, even after its PGID is reused. */
export interface GroupIdParts {
  pgid: number;
  anchorPid: number;
  anchorStartKey: number;
}

export function formatGroupId({ pgid, anchorPid, anchorStartKey }: GroupIdParts): string {
  return `${pgid}:${anchorPid}:${anchorStartKey}`;
}

/** Parses `<pgid>:<anchorPid>:<anchorStartKey>`; null for anything else (a bare PID is not a group id). */
export function parseGroupId(id: string): GroupIdParts | null {
  const m = GROUP_ID_PATTERN.exec(id);
  if (!m) return null;
  const parts = { pgid: Number(m[1]), anchorPid: Number(m[2]), anchorStartKey: Number(m[3]) };
  if (!Number.isSafeInteger(parts.anchorStartKey) || parts.pgid <= 1 || parts.anchorPid <= 0) return null;
  return parts;
}

/** The anchor that identifies a group: its leader while alive, else its oldest member. */
export function chooseAnchor<T extends { pid: number; startKey: number }>(
  pgid: number,
  members: readonly T[],
): T {
  const leader = members.find((m) => m.pid === pgid);
  if (leader) return leader;
  let oldest = members[0]!;
  for (const m of members) {
    if (m.startKey < oldest.startKey || (m.startKey === oldest.startKey && m.pid < oldest.pid)) oldest = m;
  }
  return oldest;
}
