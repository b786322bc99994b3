// Flag values read once for every command: how a command names the groups it acts on (a group id,
// `--port N` or `--session ID`, for ps, kill, keep and unkeep), and whole numbers within their bounds.
import { GROUP_ID_PATTERN } from '../../shared/group-id';
import { parsePortNumber } from '../../shared/port-number';
import { sessionIdProblem } from '../../shared/session-id';
import { parseGroupId } from '../core/facade/service';
import { UsageError } from '../common/usage-error';

export type Target = { groupId: string } | { port: number } | { session: string };

/** `--name N`: a whole number from `min` to `max` (bounds taken from where they are declared). */
export function wholeNumberOf(
  name: string,
  text: string,
  { min, max }: { min: number; max: number },
  unit = '',
): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${name}: expected ${min}..${max}${unit}, got '${text}'`);
  return n;
}

/** `--port N`: a port number from 1 to 65535. */
export function portOf(text: string): number {
  const port = parsePortNumber(text);
  if (port === null) throw new UsageError(`--port: expected a port number from 1 to 65535, got '${text}'`);
  return port;
}

/** `--session ID`: a session id or its first characters, as the transport takes it. */
export function sessionOf(text: string): string {
  const problem = sessionIdProblem(text);
  if (problem !== null) throw new UsageError(`--session: '${text}' is not a session id (it ${problem})`);
  return text;
}

/** Why a string is not a group id Corral will act on, in words; null when it is one. */
export function groupIdProblem(id: string): string | null {
  if (parseGroupId(id)) return null;
  const m = GROUP_ID_PATTERN.exec(id);
  if (m && Number(m[1]) <= 1) {
    return `'${id}': PGID ${m[1]} is never signalled (${m[1] === '0' ? "PGID 0 means the caller's own group" : "PGID 1 is init's group"})`;
  }
  if (m) return `'${id}' is not a valid group id (the pid part must be positive)`;
  return `'${id}' is not a group id: use the GROUP column of \`corral ps\` (<pgid>:<pid>:<start>), never by a bare PID or PGID`;
}

/** The one target a call names: exactly one of a group id, `--port` and `--session`. */
export function targetOf(
  values: { port?: string; session?: string },
  positionals: readonly string[],
): Target {
  const ways = [positionals.length > 0, values.port !== undefined, values.session !== undefined];
  if (ways.filter(Boolean).length > 1)
    throw new UsageError('name the groups one way: a group id, --port or --session');
  if (values.session !== undefined) return { session: sessionOf(values.session) };
  if (values.port !== undefined) return { port: portOf(values.port) };
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0
        ? 'expected a group id (the GROUP column of `corral ps`)'
        : `expected one group id, got ${positionals.length}`,
    );
  const groupId = positionals[0]!;
  const problem = groupIdProblem(groupId);
  if (problem !== null) throw new UsageError(problem);
  return { groupId };
}
