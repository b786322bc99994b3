import type { MonitorEvent, PolicyNote } from '../../../shared/model';

export type JournalReading = { event: MonitorEvent } | { problem: string };

const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const JOURNAL_TYPES = ['policy-matched', 'stopped-by-policy'];

/** One policy note on an incident, checked the way stored rows are: anything else is malformed. */
export function isPolicyNote(v: unknown): v is PolicyNote {
  if (typeof v !== 'object' || v === null) return false;
  const n = v as Record<string, unknown>;
  return (
    typeof n.policy === 'string' &&
    (n.action === 'notify' || n.action === 'stop') &&
    typeof n.executed === 'boolean' &&
    isTime(n.at) &&
    (n.reason === undefined || typeof n.reason === 'string')
  );
}

/**
 * Reads one stored journal entry (a `policy-matched` or `stopped-by-policy` event), checking every
 * field the journal and its counts rely on: a malformed row is reported, never returned.
 */
export function readJournalRow(body: unknown): JournalReading {
  if (typeof body !== 'string') return { problem: 'the journal row has no JSON body' };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { problem: 'the journal row is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { problem: 'the journal row is not an object' };
  const e = value as Record<string, unknown>;
  if (!JOURNAL_TYPES.includes(e.type as string))
    return { problem: `journal entry type ${JSON.stringify(e.type)} is not a policy event` };
  const bad = (what: string): JournalReading => ({ problem: `journal entry ${String(e.groupId)}: ${what}` });
  if (typeof e.groupId !== 'string' || e.groupId.length === 0)
    return { problem: 'journal entry has no groupId' };
  if (!isTime(e.at)) return bad(`at ${JSON.stringify(e.at)} is not a time`);
  if (!Number.isSafeInteger(e.pid) || !Number.isSafeInteger(e.pgid))
    return bad('pid or pgid is not a number');
  const d = e.detail as Record<string, unknown> | undefined;
  if (typeof d !== 'object' || d === null || typeof d.policy !== 'string')
    return bad('detail.policy is missing');
  if (
    e.type === 'policy-matched' &&
    ((d.action !== 'notify' && d.action !== 'stop') || typeof d.executed !== 'boolean')
  )
    return bad('detail.action or detail.executed is malformed');
  return { event: value as MonitorEvent };
}
