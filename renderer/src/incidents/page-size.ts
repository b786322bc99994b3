/** Incidents the Incidents page shows at once; it asks for one more, to know whether an older page exists. */
export const PAGE_SIZE = 100;
