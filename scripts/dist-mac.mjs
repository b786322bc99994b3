#!/usr/bin/env node
// Packages the macOS dmg for one architecture (`node scripts/dist-mac.mjs arm64|x64`), signed and
// notarized when the credentials are in the environment, unsigned otherwise, saying which.
import { spawnSync } from 'node:child_process';

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

const env = { ...process.env };
const args = ['electron-builder', '--mac', 'dmg', `--${arch}`, '--publish', 'never'];
const signing = ['CSC_LINK', 'CSC_KEY_PASSWORD'].filter((k) => !env[k]);
const notarizing = ['APPLE_API_KEY', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER'].filter((k) => !env[k]);

if (signing.length > 0) {
  console.log(`dist-mac: not signing (${signing.join(', ')} not set); the app will be unsigned.`);
  env.CSC_IDENTITY_AUTO_DISCOVERY = 'false';
  args.push('-c.mac.identity=null');
} else if (notarizing.length > 0) {
  console.log(`dist-mac: signing, not notarizing (${notarizing.join(', ')} not set).`);
} else {
  console.log('dist-mac: signing and notarizing.');
  args.push('-c.mac.notarize=true');
}

const result = spawnSync('npx', args, { stdio: 'inherit', env });
process.exit(result.status ?? 1);
