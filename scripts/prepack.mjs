#!/usr/bin/env node
// `prepack`: npm runs it before `npm pack` and `npm publish` pack. It builds, then asks npm what the
// tarball would hold and fails the pack, naming what is missing, unless it holds the built CLI and UI:
// a package without them installs a `corral` that cannot run. The build's output goes to stderr so
// that `npm pack --json` still prints only JSON. The dry run skips scripts, so it does not come back here.
import process from 'node:process';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const NEEDED = ['out/main/corral.js', 'out/main/corral-hook.js', 'out/renderer/index.html'];

function run(command, args, stdio) {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', stdio });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    process.stderr.write(
      `corral prepack: ${command} ${args.join(' ')} failed (${result.status ?? result.signal})\n`,
    );
    process.exit(1);
  }
  return result.stdout ?? '';
}

run('npm', ['run', '--silent', 'build'], ['ignore', 2, 2]);
const listed = JSON.parse(run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], 'pipe'));
const paths = new Set(listed[0].files.map((f) => f.path));
const missing = NEEDED.filter((f) => !paths.has(f));
if (missing.length > 0) {
  process.stderr.write(`corral prepack: the package would lack ${missing.join(', ')}: not packing it\n`);
  process.exit(1);
}
