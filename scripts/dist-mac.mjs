#!/usr/bin/env node
// Packages the macOS dmg and zip for one architecture (`node scripts/dist-mac.mjs arm64|x64`), signed and
// notarized when the credentials are in the environment, unsigned otherwise, saying which; for a release
// (CORRAL_RELEASE=1) it refuses to build unsigned or unnotarized.
// Unsigned still means launchable: electron-builder.yml's electronFuses.resetAdHocDarwinSignature
// re-signs the bundle ad hoc after the fuses are flipped, which Apple Silicon requires.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const SIGNING_KEYS = ['CSC_LINK', 'CSC_KEY_PASSWORD'];
const NOTARIZING_KEYS = ['APPLE_API_KEY', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER'];

/**
 * What to change in electron-builder.yml for this environment: `config` is merged over the file
 * (electron-builder's `-c.<path>=<value>`), `env` over the process environment.
 */
export function macBuildPlan(env, fileExists = existsSync) {
  const signing = SIGNING_KEYS.filter((k) => !env[k]);
  const notarizing = NOTARIZING_KEYS.filter((k) => !env[k]);
  // @electron/notarize reads the API key from a file: APPLE_API_KEY is the path to the .p8, not its text.
  if (env.APPLE_API_KEY && !fileExists(env.APPLE_API_KEY))
    return {
      refuse: `APPLE_API_KEY must be the path to the App Store Connect key file (AuthKey_<id>.p8), and ${
        env.APPLE_API_KEY.includes('PRIVATE KEY') ? 'it holds the key itself' : 'no such file exists'
      }`,
    };
  // A release is what users update to: MacUpdater (Squirrel.Mac) installs only a build signed like the
  // running app, and Gatekeeper opens a downloaded one without a detour only when it is notarized.
  if (env.CORRAL_RELEASE === '1' && signing.length + notarizing.length > 0)
    return {
      refuse: `a release must be signed and notarized; not set: ${[...signing, ...notarizing].join(', ')}`,
    };
  if (signing.length > 0)
    return {
      // No certificate: no Developer ID signature, so no hardened runtime (an ad hoc signature with it
      // fails library validation on Electron's frameworks); the fuses' ad hoc re-sign is the signature.
      config: { mac: { identity: null, hardenedRuntime: false } },
      env: { CSC_IDENTITY_AUTO_DISCOVERY: 'false' },
      message: `not signing (${signing.join(', ')} not set); the app will be signed ad hoc only.`,
    };
  if (notarizing.length > 0)
    return {
      config: {},
      env: {},
      message: `signing, not notarizing (${notarizing.join(', ')} not set).`,
    };
  return { config: { mac: { notarize: true } }, env: {}, message: 'signing and notarizing.' };
}

/** `{ mac: { identity: null } }` as electron-builder's command-line overrides (`-c.mac.identity=null`). */
export function configFlags(config, prefix = '-c') {
  return Object.entries(config).flatMap(([key, value]) =>
    value !== null && typeof value === 'object'
      ? configFlags(value, `${prefix}.${key}`)
      : [`${prefix}.${key}=${value}`],
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arch = process.argv[2];
  if (arch !== 'arm64' && arch !== 'x64') {
    console.error(
      'usage: node scripts/dist-mac.mjs arm64|x64 (one architecture per machine: native packages differ)',
    );
    process.exit(2);
  }
  if (process.arch !== arch) {
    console.error(
      `refusing to package ${arch} on a ${process.arch} machine: koffi and libsql would ship ${process.arch} binaries`,
    );
    process.exit(2);
  }
  const plan = macBuildPlan(process.env);
  if (plan.refuse) {
    console.error(`dist-mac: ${plan.refuse}`);
    process.exit(2);
  }
  console.log(`dist-mac: ${plan.message}`);
  // The dmg is what people download; the zip and latest-mac.yml are what the app updates from. Nothing is
  // uploaded from here: the release workflow merges both runners' latest-mac.yml and publishes once.
  const args = ['electron-builder', '--mac', 'dmg', 'zip', `--${arch}`, '--publish', 'never'];
  const result = spawnSync('npx', [...args, ...configFlags(plan.config)], {
    stdio: 'inherit',
    env: { ...process.env, ...plan.env },
  });
  process.exit(result.status ?? 1);
}
