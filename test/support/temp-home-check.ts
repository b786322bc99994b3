import { homedir } from 'node:os';

// Each test file's worker must run with the temporary HOME test/support/temp-home.ts made: stop at
// once, before any test writes, if it does not.
const home = process.env.CORRAL_TEST_HOME;
if (!home || process.env.HOME !== home || homedir() !== home) {
  throw new Error(
    `tests must run with the temporary HOME from test/support/temp-home.ts; HOME is ${process.env.HOME ?? '(unset)'}`,
  );
}
