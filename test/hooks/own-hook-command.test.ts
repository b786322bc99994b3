// What `corral serve`'s page installs hooks with, and the terminal command it shows, on a machine
// with and without `corral` on PATH: real files, a real executable, real paths.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ownCliCommand, ownHookCommand } from '../../main/cli/own-hook-command';
import { removeDir } from '../support/spawned-groups';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

/** A built CLI in a checkout-like tree: out/main/corral.js with the hook entry beside it. */
function builtCli(): { script: string; hookEntry: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'corral checkout-')));
  dirs.push(root);
  mkdirSync(join(root, 'out', 'main'), { recursive: true });
  const script = join(root, 'out', 'main', 'corral.js');
  const hookEntry = join(root, 'out', 'main', 'corral-hook.js');
  writeFileSync(script, '');
  writeFileSync(hookEntry, '');
  return { script, hookEntry };
}

describe("serve's hook command", () => {
  it('without corral on PATH: hooks run the built hook entry, the terminal runs the CLI itself, by absolute paths', () => {
    const { script, hookEntry } = builtCli();
    const emptyPath = mkdtempSync(join(tmpdir(), 'corral-empty-path-'));
    dirs.push(emptyPath);
    const resolved = ownHookCommand({ PATH: emptyPath }, script);
    // The space in the checkout's path is quoted for the shell the agents run hooks in.
    expect(resolved).toEqual({
      command: `${process.execPath} '${hookEntry}'`,
      cli: `${process.execPath} '${script}'`,
    });
    expect(ownCliCommand({ PATH: emptyPath }, script)).toBe(`${process.execPath} '${script}'`);
  });

  it('with an executable corral on PATH: both are that command, as the desktop resolves it', () => {
    const { script } = builtCli();
    const bin = realpathSync(mkdtempSync(join(tmpdir(), 'corral-bin-')));
    dirs.push(bin);
    writeFileSync(join(bin, 'corral'), '#!/bin/sh\n');
    chmodSync(join(bin, 'corral'), 0o755);
    expect(ownHookCommand({ PATH: bin }, script)).toEqual({ command: join(bin, 'corral') });
  });

  it('with CORRAL_HOOK_COMMAND: the hooks run it, the terminal command is still the CLI', () => {
    const { script } = builtCli();
    expect(ownHookCommand({ PATH: '', CORRAL_HOOK_COMMAND: 'corral-hook-wrapper' }, script)).toEqual({
      command: 'corral-hook-wrapper',
      cli: `${process.execPath} '${script}'`,
    });
  });
});
