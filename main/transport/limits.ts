/** Largest request payload either transport accepts, measured as JSON text. */
export const MAX_PAYLOAD_BYTES = 64 * 1024;

/** Generous for three 20-digit numbers; anything longer is not an id the core issued. */
export const MAX_GROUP_ID_LENGTH = 64;

export const MAX_INCIDENTS_LIMIT = 10_000;
