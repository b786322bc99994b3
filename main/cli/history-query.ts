// `corral history`'s filter flags as the contract's IncidentListRequest, the same request the page sends.
import type { IncidentListRequest } from '../../shared/contract';
import {
  INCIDENT_FLAGS,
  isIncidentFlag,
  MAX_INCIDENTS_LIMIT,
  MAX_INCIDENTS_OFFSET,
  parseHistoryTime,
} from '../../shared/incident-filter';
import { UsageError } from '../common/usage-error';
import { wholeNumberOf } from './flag-values';

export interface HistoryFlagValues {
  agent?: string;
  session?: string;
  project?: string;
  flag?: string;
  since?: string;
  until?: string;
  limit?: string;
  offset?: string;
}

function time(name: string, text: string | undefined, now: number): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseHistoryTime(text, now);
  if (ms === null)
    throw new UsageError(
      `--${name}: expected a span back from now (30m, 2h, 7d) or a date (2026-12-03T14:05), got '${text}'`,
    );
  return ms;
}

function nonEmpty(name: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (text.length === 0) throw new UsageError(`--${name}: expected a value, got ''`);
  return text;
}

/** The request the flags ask for; a value the filter cannot take is a usage error naming the flag. */
export function historyQuery(values: HistoryFlagValues, now: number): IncidentListRequest {
  const flag = values.flag;
  if (flag !== undefined && !isIncidentFlag(flag))
    throw new UsageError(`--flag: expected one of ${INCIDENT_FLAGS.join(', ')}, got '${flag}'`);
  const query: IncidentListRequest = {
    agent: nonEmpty('agent', values.agent),
    sessionId: nonEmpty('session', values.session),
    project: nonEmpty('project', values.project),
    flag,
    sinceMs: time('since', values.since, now),
    untilMs: time('until', values.until, now),
    limit: wholeNumberOf('limit', values.limit ?? '', { min: 1, max: MAX_INCIDENTS_LIMIT }),
    offset: wholeNumberOf('offset', values.offset ?? '0', { min: 0, max: MAX_INCIDENTS_OFFSET }),
  };
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));
}
