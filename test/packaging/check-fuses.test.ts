import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FuseV1Options, FuseVersion, flipFuses, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module script without types
import { EXPECTED, wrongFuses } from '../../scripts/check-fuses.mjs';

// A stand-in for the Electron binary: junk around the fuse wire Electron ships (sentinel, version 1,
// length, one ASCII '0'/'1' per fuse), read and written by the real @electron/fuses.
const dir = mkdtempSync(join(tmpdir(), 'corral-fuses-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fakeElectron(name: string): string {
  const path = join(dir, name);
  const wire = Buffer.concat([
    Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'),
    Buffer.from([1, 8]),
    Buffer.from('10110001'), // Electron's defaults: RunAsNode, NODE_OPTIONS, --inspect on; asar checks off
  ]);
  writeFileSync(path, Buffer.concat([Buffer.alloc(4096, 7), wire, Buffer.alloc(4096, 7)]));
  return path;
}

describe('scripts/check-fuses.mjs', () => {
  it('fails on an Electron binary with the default fuses, naming each wrong one', async () => {
    const wrong: string[] = wrongFuses(await getCurrentFuseWire(fakeElectron('default')));
    expect(wrong.map((w) => w.split(':')[0])).toEqual(Object.keys(EXPECTED));
  });

  it('passes once the fuses are flipped as electron-builder.yml sets them', async () => {
    const binary = fakeElectron('flipped');
    await flipFuses(binary, {
      version: FuseVersion.V1,
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
    });
    expect(wrongFuses(await getCurrentFuseWire(binary))).toEqual([]);
  });

  it('fails when a single fuse is wrong', async () => {
    const binary = fakeElectron('one-wrong');
    await flipFuses(binary, {
      version: FuseVersion.V1,
      [FuseV1Options.RunAsNode]: true,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
    });
    expect(wrongFuses(await getCurrentFuseWire(binary))).toEqual(['RunAsNode: expected off, read ENABLE']);
  });
});
