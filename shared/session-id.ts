/** Longer than any agent's session id (uuids are 36 characters). */
export const MAX_SESSION_ID_LENGTH = 256;

/**
 * Why `value` is not a session id as a snapshot shows it (agents' ids are uuids, thread ids, or
 * OpenCode's pid), nor a prefix of one: any printable text, bounded. Null when it is one. The transport
 * checks requests with it and the CLI checks `--session` with it.
 */
export function sessionIdProblem(value: string): string | null {
  if (value.length === 0 || value.length > MAX_SESSION_ID_LENGTH)
    return `must be 1 to ${MAX_SESSION_ID_LENGTH} characters long`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return 'must not contain control characters';
  return null;
}
