/** What decides whether the app may look for an update right now; every field is read when it checks. */
export interface UpdateGateState {
  /** The `updates.enabled` setting (config file). */
  enabled: boolean;
  /** Why this build cannot update itself (unsigned, not packaged, installed by a package manager), or null. */
  unsupported: string | null;
  /** Stops (of a group or a session) under way right now. */
  stopsRunning: number;
}

/** Null when a check may run; else why not, one line. */
export function updateCheckBlocked(state: UpdateGateState): string | null {
  if (state.unsupported) return state.unsupported;
  if (!state.enabled) return 'updates are turned off (updates.enabled is false)';
  if (state.stopsRunning > 0) return 'a stop is running';
  return null;
}
