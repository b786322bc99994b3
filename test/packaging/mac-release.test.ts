// What a macOS release must carry for the app to update itself, checked with electron-builder's own
// config loader and electron-updater's own file choice (no Mac needed for either): a zip beside the dmg
// (MacUpdater installs from a zip and throws ERR_UPDATER_ZIP_FILE_NOT_FOUND without one) and one
// latest-mac.yml naming both architectures' files (scripts/merge-latest-mac.mjs).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module script without types
import { mergeLatestMacYaml, mergeUpdateInfos } from '../../scripts/merge-latest-mac.mjs';

const load = createRequire(import.meta.url);
const { getConfig } = load('app-builder-lib/out/util/config/config');
const { MacUpdater } = load('electron-updater/out/MacUpdater');
const { findFile, resolveFiles } = load('electron-updater/out/providers/Provider');
const yaml = load('js-yaml');

const root = resolve(__dirname, '../..');
const base = new URL('https://github.com/corral-dev/corral/releases/download/v0.2.0/');

/** latest-mac.yml as electron-builder writes it for one architecture's build. */
function builtYaml(arch: 'arm64' | 'x64', targets: Array<'zip' | 'dmg'>): string {
  const suffix = arch === 'arm64' ? '-arm64' : '';
  const name = (t: string): string =>
    t === 'zip' ? `Corral-0.2.0${suffix}-mac.zip` : `Corral-0.2.0${suffix}.dmg`;
  const files = targets.map((t) => ({ url: name(t), sha512: `${arch}-${t}-sha`, size: 100 }));
  return yaml.dump({
    version: '0.2.0',
    files,
    path: files[0]!.url,
    sha512: files[0]!.sha512,
    releaseDate: arch === 'arm64' ? '2026-12-03T10:00:00.000Z' : '2026-12-03T10:05:00.000Z',
  });
}

/** The zip MacUpdater would download on a Mac of this kind, or null (its ERR_UPDATER_ZIP_FILE_NOT_FOUND). */
function zipChosen(latestMac: string, arm64Mac: boolean): string | null {
  const files = MacUpdater.filterFilesForArch(resolveFiles(yaml.load(latestMac), base), arm64Mac);
  const zip = findFile(files, 'zip', ['pkg', 'dmg']);
  return zip ? (zip.url.pathname.split('/').at(-1) as string) : null;
}

describe('a macOS release the app can update from', () => {
  it('electron-builder.yml builds a zip beside the dmg', async () => {
    const config = await getConfig(root, null, null);
    expect(config.mac.target).toEqual(expect.arrayContaining(['dmg', 'zip']));
  });

  it('unpacks the CLI and what it loads beside app.asar, for the `corral` command to run on plain Node', async () => {
    const { minimatch } = load('minimatch');
    const config = await getConfig(root, null, null);
    const unpacked = (path: string): boolean =>
      (config.asarUnpack as string[]).some((pattern) => minimatch(path, pattern, { dot: true }));
    for (const path of ['bin/corral.mjs', 'out/main/corral.js', 'out/main/corral-hook.js', 'package.json'])
      expect(unpacked(path), path).toBe(true);
    const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { dependencies: object };
    for (const dep of Object.keys(pkg.dependencies))
      expect(unpacked(`node_modules/${dep}/package.json`), dep).toBe(true);
    expect(unpacked('out/renderer/index.html')).toBe(false);
  });

  it('a dmg-only build gives MacUpdater nothing to install (what the release path used to publish)', () => {
    expect(zipChosen(builtYaml('arm64', ['dmg']), true)).toBeNull();
  });

  it('one latest-mac.yml merged from both runners updates each architecture from its own zip', () => {
    const merged = mergeLatestMacYaml([builtYaml('arm64', ['zip', 'dmg']), builtYaml('x64', ['zip', 'dmg'])]);
    expect(zipChosen(merged, true)).toBe('Corral-0.2.0-arm64-mac.zip');
    expect(zipChosen(merged, false)).toBe('Corral-0.2.0-mac.zip');
    // Either file alone, as the second upload would leave it, serves one architecture only.
    expect(zipChosen(builtYaml('x64', ['zip', 'dmg']), true)).toBe('Corral-0.2.0-mac.zip');
    const info = yaml.load(merged) as { releaseDate: string; path: string };
    expect(info.releaseDate).toBe('2026-12-03T10:05:00.000Z');
    expect(info.path).toBe('Corral-0.2.0-mac.zip');
  });

  it('refuses builds of different versions or without a zip', () => {
    const arm = yaml.load(builtYaml('arm64', ['zip', 'dmg']));
    expect(() =>
      mergeUpdateInfos([arm, { ...yaml.load(builtYaml('x64', ['zip'])), version: '0.1.9' }]),
    ).toThrow('different versions');
    expect(() => mergeUpdateInfos([arm, yaml.load(builtYaml('x64', ['dmg']))])).toThrow('lists no zip');
  });

  it('the release workflow publishes only a signed, notarized build and one merged latest-mac.yml', () => {
    const workflow = readFileSync(resolve(root, '.github/workflows/release.yml'), 'utf8');
    expect(workflow).toContain('node scripts/merge-latest-mac.mjs');
    expect(workflow).toContain('scripts/dist-mac.mjs');
    expect(workflow).toMatch(/CORRAL_RELEASE: '1'/);
  });
});
