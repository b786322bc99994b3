/**
 * A group id as the core issues it: `<pgid>:<anchorPid>:<anchorStartKey>`, each part a bounded run of
 * digits. The core parses it with this pattern and both transports check requests against it.
 */
export const GROUP_ID_PATTERN = /^(\d{1,10}):(\d{1,10}):(\d{1,20})$/;
