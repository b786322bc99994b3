#!/usr/bin/env node
// `npm run pack`: the npm package with its build inside. A plain `npm pack` here skips `prepack` (the
// repository's .npmrc sets ignore-scripts, so that installing never runs dependencies' scripts) and
// would pack a package without the built CLI; this script builds first, packs, and checks the tarball
// holds the CLI. Arguments go to `npm pack` (e.g. --pack-destination DIR).
import process from 'node:process';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const NEEDED = [
  'package/out/main/corral.js',
  'package/out/main/corral-hook.js',
  'package/out/renderer/index.html',
];

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', ...options });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    process.stderr.write(
      `corral pack: ${command} ${args.join(' ')} failed (${result.status ?? result.signal})\n`,
    );
    process.exit(1);
  }
  return result.stdout ?? '';
}

run('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
// Built already: prepack need not run again.
const packed = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', ...process.argv.slice(2)]));
const { filename, files } = packed[0];
const paths = new Set(files.map((f) => `package/${f.path}`));
const missing = NEEDED.filter((f) => !paths.has(f));
if (missing.length > 0) {
  process.stderr.write(`corral pack: ${filename} lacks ${missing.join(', ')}: not a working package\n`);
  process.exit(1);
}
process.stdout.write(`${filename}\n`);
