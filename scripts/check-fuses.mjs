#!/usr/bin/env node
// Reads the fuses of a packaged app (`node scripts/check-fuses.mjs dist/mac-arm64/Corral.app`) with
// @electron/fuses and fails unless each one is as electron-builder.yml sets it.
import { getCurrentFuseWire, FuseV1Options, FuseState } from '@electron/fuses';
import { join } from 'node:path';

export const EXPECTED = {
  RunAsNode: false,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
};

/** The names of the fuses whose state differs from EXPECTED, with what was read. */
export function wrongFuses(wire) {
  const wrong = [];
  for (const [name, enabled] of Object.entries(EXPECTED)) {
    const state = wire[FuseV1Options[name]];
    const want = enabled ? FuseState.ENABLE : FuseState.DISABLE;
    if (state !== want)
      wrong.push(`${name}: expected ${enabled ? 'on' : 'off'}, read ${FuseState[state] ?? state}`);
  }
  return wrong;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const app = process.argv[2];
  if (!app) {
    console.error('usage: node scripts/check-fuses.mjs <path to Corral.app or the Electron binary>');
    process.exit(2);
  }
  const binary = app.endsWith('.app') ? join(app, 'Contents', 'MacOS', 'Corral') : app;
  const wrong = wrongFuses(await getCurrentFuseWire(binary));
  if (wrong.length > 0) {
    console.error(`wrong fuses in ${binary}:\n  ${wrong.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`fuses as configured in ${binary}`);
}
