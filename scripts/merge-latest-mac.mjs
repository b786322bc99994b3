#!/usr/bin/env node
// One latest-mac.yml for a release built on two runners (arm64 and Intel, one architecture each: their
// native packages differ). electron-builder writes a latest-mac.yml per build naming only that build's
// files; uploaded one after the other, the second would replace the first and one architecture would
// never update. electron-updater's MacUpdater picks from `files` by architecture (arm64 in the name), so
// the release carries one file listing both.
//   node scripts/merge-latest-mac.mjs <latest-mac.yml> <latest-mac.yml> > latest-mac.yml
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const yaml = createRequire(import.meta.url)('js-yaml');

/** Pure: the update infos (parsed latest-mac.yml) of one version merged into one; throws on a mismatch. */
export function mergeUpdateInfos(infos) {
  if (infos.length === 0) throw new Error('nothing to merge');
  const versions = new Set(infos.map((i) => i.version));
  if (versions.size !== 1)
    throw new Error(`the builds are of different versions: ${[...versions].join(', ')}`);
  const files = [];
  const seen = new Set();
  for (const info of infos) {
    if (!Array.isArray(info.files) || !info.files.some((f) => /\.zip$/.test(f.url)))
      throw new Error(`a build of ${info.version} lists no zip: MacUpdater needs one to update`);
    for (const file of info.files) {
      if (seen.has(file.url)) continue;
      seen.add(file.url);
      files.push(file);
    }
  }
  // The legacy top-level path and checksum (read by old updaters only) are the Intel build's, as a
  // single-architecture file from an Intel runner would have them.
  const legacy = infos.find((i) => !/arm64/.test(i.path)) ?? infos[0];
  const releaseDate = infos
    .map((i) => i.releaseDate)
    .sort()
    .at(-1);
  return { ...legacy, files, releaseDate };
}

export function mergeLatestMacYaml(texts) {
  return yaml.dump(mergeUpdateInfos(texts.map((t) => yaml.load(t))), { lineWidth: -1 });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const paths = process.argv.slice(2);
  if (paths.length < 2) {
    console.error('usage: node scripts/merge-latest-mac.mjs <latest-mac.yml> <latest-mac.yml> [...]');
    process.exit(2);
  }
  process.stdout.write(mergeLatestMacYaml(paths.map((p) => readFileSync(p, 'utf8'))));
}
