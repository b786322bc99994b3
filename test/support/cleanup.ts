import { afterEach } from 'vitest';
import { removeCreatedGroups } from './spawned-groups';

// Each test removes what it started, by the process groups it created.
afterEach(async () => {
  await removeCreatedGroups();
});
