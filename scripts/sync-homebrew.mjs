#!/usr/bin/env node
// Keeps deploy/homebrew/ in step with package.json's version.
//   node scripts/sync-homebrew.mjs                  writes the version into the formula and the cask
//   node scripts/sync-homebrew.mjs --check          exits 1, naming each file, when one is out of step
//   --tarball corral-X.tgz                          also sets the formula's sha256 (the tarball npm publishes)
//   --dmg-arm64 Corral-X-arm64.dmg --dmg-x64 Corral-X.dmg   also set the cask's sha256 per architecture
//   --dir <path>                                    another copy of deploy/homebrew (the tests use one)
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    tarball: { type: 'string' },
    'dmg-arm64': { type: 'string' },
    'dmg-x64': { type: 'string' },
    dir: { type: 'string', default: join(root, 'deploy', 'homebrew') },
  },
  strict: true,
});
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`package.json version '${version}' is not x.y.z`);
const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

const formulaPath = join(values.dir, 'corral.rb');
const caskPath = join(values.dir, 'corral-app.rb');
const versionIn = {
  [formulaPath]: (t) => /corral\/-\/corral-(\d+\.\d+\.\d+)\.tgz"/.exec(t)?.[1],
  [caskPath]: (t) => /^\s*version "([^"]+)"$/m.exec(t)?.[1],
};

if (values.check) {
  let stale = false;
  for (const [path, read] of Object.entries(versionIn)) {
    const found = read(readFileSync(path, 'utf8'));
    if (found !== version) {
      console.error(
        `${path}: version ${found ?? '(none)'}, package.json has ${version}: run node scripts/sync-homebrew.mjs`,
      );
      stale = true;
    }
  }
  process.exit(stale ? 1 : 0);
}

let formula = readFileSync(formulaPath, 'utf8').replace(
  /corral\/-\/corral-\d+\.\d+\.\d+\.tgz"/,
  `corral/-/corral-${version}.tgz"`,
);
if (values.tarball) formula = formula.replace(/^(\s*sha256 ")[0-9a-f]{64}"/m, `$1${sha256(values.tarball)}"`);
writeFileSync(formulaPath, formula);

let cask = readFileSync(caskPath, 'utf8').replace(/^(\s*version ")[^"]+"/m, `$1${version}"`);
if (values['dmg-arm64']) cask = cask.replace(/(arm:\s+")[0-9a-f]{64}"/, `$1${sha256(values['dmg-arm64'])}"`);
if (values['dmg-x64']) cask = cask.replace(/(intel:\s+")[0-9a-f]{64}"/, `$1${sha256(values['dmg-x64'])}"`);
writeFileSync(caskPath, cask);
console.log(`deploy/homebrew: version ${version}`);
