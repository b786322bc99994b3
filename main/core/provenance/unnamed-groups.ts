/** How often a group whose events found no session is asked again, and for how long after the first. */
export const ASK_AGAIN_EVERY_MS = 2_000;
export const ASK_AGAIN_FOR_MS = 120_000;
/** At most this many groups wait to be asked again: a storm of leftovers must not grow it without bound. */
const MAX_WAITING = 256;

/**
 * The agents' groups a named event was decorated for without finding their session: read before their
 * markers were (mid-exec), before the agent wrote its session file, or before they were attributed. The
 * no-window snapshot reads nothing itself and no later event may come for a leftover that just sits, so
 * these are asked again on its pace until found, ended, or given up.
 */
export class UnnamedGroups {
  private readonly waiting = new Map<string, { since: number; askedAt: number }>();

  /** The group's event found no session at `now`. */
  note(groupId: string, now: number): void {
    const asked = this.waiting.get(groupId);
    if (asked) asked.askedAt = now;
    else if (this.waiting.size < MAX_WAITING) this.waiting.set(groupId, { since: now, askedAt: now });
  }

  /** Found, or ended: not asked again. */
  forget(groupId: string): void {
    this.waiting.delete(groupId);
  }

  /** Of `ids`, the groups due to be asked again now (each marked asked); drops those waited on too long. */
  due(ids: Iterable<string>, now: number): Set<string> {
    const due = new Set<string>();
    if (this.waiting.size === 0) return due;
    for (const [id, asked] of this.waiting) if (now - asked.since > ASK_AGAIN_FOR_MS) this.waiting.delete(id);
    for (const id of ids) {
      const asked = this.waiting.get(id);
      if (!asked || now - asked.askedAt < ASK_AGAIN_EVERY_MS) continue;
      asked.askedAt = now;
      due.add(id);
    }
    return due;
  }

  get size(): number {
    return this.waiting.size;
  }
}
