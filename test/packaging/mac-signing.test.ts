import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { flipFuses } from '@electron/fuses';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module script without types
import { configFlags, macBuildPlan } from '../../scripts/dist-mac.mjs';

// electron-builder's own loader and schema (app-builder-lib 26, electron-builder's engine): the config
// is read and validated as `electron-builder` reads it, so a misspelt key fails here, not on a Mac.
// (The package index first: its modules import each other in a cycle only it resolves.)
const load = createRequire(import.meta.url);
const { PlatformPackager } = load('app-builder-lib');
const { getConfig, doMergeConfigs, validateConfiguration } = load('app-builder-lib/out/util/config/config');

const root = resolve(__dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'corral-signing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type MacConfig = { identity?: string | null; hardenedRuntime?: boolean; notarize?: boolean };
type Loaded = { electronFuses: Record<string, unknown>; mac: MacConfig };

async function packagedConfig(env: Record<string, string>): Promise<Loaded> {
  const plan = macBuildPlan(env);
  const config = doMergeConfigs([await getConfig(root, null, null), plan.config]);
  await validateConfiguration(config, { isEnabled: false, add: () => undefined });
  return config;
}

const certificate = { CSC_LINK: 'cert.p12', CSC_KEY_PASSWORD: 'secret' };
const keyFile = join(dir, 'AuthKey_ID.p8');
writeFileSync(keyFile, '-----BEGIN PRIVATE KEY-----\nMIG\n-----END PRIVATE KEY-----\n');
const notary = { APPLE_API_KEY: keyFile, APPLE_API_KEY_ID: 'id', APPLE_API_ISSUER: 'iss' };

describe('the packaged macOS app is signed so that Apple Silicon launches it', () => {
  it('without a certificate: no identity, no hardened runtime, the fuses re-sign ad hoc', async () => {
    const config = await packagedConfig({});
    expect(config.electronFuses.resetAdHocDarwinSignature).toBe(true);
    expect(config.mac.identity).toBeNull();
    expect(config.mac.hardenedRuntime).toBe(false);
    expect(macBuildPlan({}).env).toEqual({ CSC_IDENTITY_AUTO_DISCOVERY: 'false' });
    expect(configFlags(macBuildPlan({}).config)).toEqual([
      '-c.mac.identity=null',
      '-c.mac.hardenedRuntime=false',
    ]);
  });

  it('with a certificate: signed for real with the hardened runtime, notarized only with the notary keys', async () => {
    const signed = await packagedConfig(certificate);
    expect(signed.mac.identity).toBeUndefined();
    expect(signed.mac.hardenedRuntime).toBe(true);
    expect(signed.mac.notarize).toBe(false);
    expect(signed.electronFuses.resetAdHocDarwinSignature).toBe(true);
    const notarized = await packagedConfig({ ...certificate, ...notary });
    expect(notarized.mac.notarize).toBe(true);
    expect(notarized.mac.hardenedRuntime).toBe(true);
  });

  it('refuses the key’s text where @electron/notarize wants the path to its .p8 file', () => {
    const text = readFileSync(keyFile, 'utf8');
    expect(macBuildPlan({ ...certificate, ...notary, APPLE_API_KEY: text }).refuse).toContain(
      'it holds the key itself',
    );
    expect(macBuildPlan({ ...certificate, ...notary }).refuse).toBeUndefined();
  });

  it('a release is signed and notarized, or not built', () => {
    const release = { CORRAL_RELEASE: '1' };
    expect(macBuildPlan(release).refuse).toContain('CSC_LINK');
    expect(macBuildPlan({ ...release, ...certificate }).refuse).toContain('APPLE_API_KEY');
    expect(macBuildPlan({ ...release, ...certificate, ...notary }).refuse).toBeUndefined();
  });

  it('the fuse config electron-builder builds from the file makes @electron/fuses run codesign ad hoc on the bundle', async () => {
    const config = await packagedConfig({});
    // app-builder-lib turns `electronFuses` into @electron/fuses' config (generateFuseConfig uses no state).
    const fuseConfig = await PlatformPackager.prototype.generateFuseConfig.call({}, config.electronFuses);
    // app-builder-lib hands flipFuses the bundle (`<appOutDir>/Corral.app`); on macOS the wire is in
    // Electron Framework.
    const app = join(dir, 'Corral.app');
    const framework = join(app, 'Contents', 'Frameworks', 'Electron Framework.framework');
    mkdirSync(framework, { recursive: true });
    const wire = Buffer.concat([
      Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'),
      Buffer.from([1, 8]),
      Buffer.from('10110001'),
    ]);
    writeFileSync(
      join(framework, 'Electron Framework'),
      Buffer.concat([Buffer.alloc(256, 7), wire, Buffer.alloc(256, 7)]),
    );
    // A stand-in for macOS's codesign that records its arguments (there is no codesign here).
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const log = join(dir, 'codesign.args');
    writeFileSync(join(bin, 'codesign'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${log}'\n`);
    chmodSync(join(bin, 'codesign'), 0o755);
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    try {
      await flipFuses(app, fuseConfig);
    } finally {
      process.env.PATH = path;
    }
    const args = readFileSync(log, 'utf8').trim().split('\n');
    expect(args.slice(0, 3)).toEqual(['--sign', '-', '--force']);
    expect(args).toContain('--deep');
    expect(args.at(-1)).toBe(app);
  });
});
