#!/usr/bin/env node
// `npm run bench` runs in a PID namespace of its own under tini and measures against a C floor:
// say what is missing, and how to install it, before anything starts.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const NEEDS = [
  { command: 'unshare', pkg: 'util-linux', why: 'the benchmark runs in a PID namespace of its own' },
  { command: 'tini', pkg: 'tini', why: "init for the benchmark's PID namespace" },
  { command: 'cc', pkg: 'gcc', why: 'the C floor (bench/c) the measurements are compared with' },
];

const onPath = (command) =>
  (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir || '.', command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

const missing = NEEDS.filter((n) => !onPath(n.command));
if (missing.length > 0) {
  for (const n of missing) process.stderr.write(`npm run bench: '${n.command}' not found (${n.why})\n`);
  const pkgs = [...new Set(missing.map((n) => n.pkg))].join(' ');
  process.stderr.write(
    `Install it with: apt-get install ${pkgs} (Debian/Ubuntu), or run scripts/install-test-deps.sh\n`,
  );
  process.exit(1);
}
