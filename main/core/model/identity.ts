/** Identity of a process across samples: a pid alone can be reused. */
export function identityKey(pid: number, startKey: number): string {
  return `${pid}@${startKey}`;
}

/** The pid inside an identityKey. */
export function pidOfIdentity(identity: string): number {
  return Number(identity.slice(0, identity.indexOf('@')));
}

/** The start stamp inside an identityKey. */
export function startKeyOfIdentity(identity: string): number {
  return Number(identity.slice(identity.indexOf('@') + 1));
}
