/** Largest request payload either transport accepts, measured as JSON text. */
export const MAX_PAYLOAD_BYTES = 64 * 1024;

/** Generous for three 20-digit numbers; anything longer is not an id the core issued. */
export const MAX_GROUP_ID_LENGTH = 64;

/** An agent's name or a project's path a history is filtered by (paths are at most PATH_MAX). */
export const MAX_FILTER_TEXT_LENGTH = 4096;

/** Groups one "stop this session" may confirm; a session leaving more is stopped in several asks. */
export const MAX_SESSION_GROUPS = 1_000;
