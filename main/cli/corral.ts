#!/usr/bin/env node
import { setLongLivedV8Flags } from './long-lived-heap';

const argv = process.argv.slice(2);
// Before the rest of the CLI is loaded, so that loading it already allocates under the heap's sizing.
setLongLivedV8Flags(argv);

// `corral ps | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

import('./cli-main')
  .then(({ main }) => main(argv))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`corral: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
    },
  );
