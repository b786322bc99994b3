// Which hook client `hooks install` writes: the C client where a C compiler is, the perl client where
// none is or the build fails (said so), and a build that is done once for one source.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { chooseHookClient } from '../../main/core/hooks-setup/hook-client-choice';
import { hookClientPath, perlProgram } from '../../main/core/hooks-setup/hook-client-script';
import {
  buildNativeHookClient,
  cCompiler,
  nativeHookClientPath,
} from '../../main/core/hooks-setup/native-hook-client';
import { nativeHookClientSource } from '../../main/core/hooks-setup/native-hook-client-source';
import { shellQuote } from '../../main/core/hooks-setup/shell-quote';
import { describeUnless } from '../support/skip';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs';

const tempDir = tempDirsRemovedAfterEach();
const compiler = process.platform === 'linux' ? cCompiler(process.env) : null;
const reason =
  process.platform !== 'linux'
    ? 'these run a compiler and perl as on Linux'
    : compiler === null
      ? 'no C compiler'
      : perlProgram() === null
        ? 'no perl'
        : undefined;
const ONE_SHOT = "/usr/bin/node '/opt/corral app/out/main/corral-hook.js'";

/** An environment whose PATH holds only `dirs`. */
function pathWith(...dirs: string[]): Record<string, string> {
  return { PATH: dirs.join(':') };
}

describeUnless(reason)('the hook client hooks install chooses', () => {
  it('is the C client where a C compiler is on PATH: built, checked, and the perl client written beside it', () => {
    const data = tempDir('corral-client-choice-');
    const choice = chooseHookClient(data, ONE_SHOT, pathWith(dirname(compiler!)), false);
    expect(choice).toEqual({ prefix: shellQuote(nativeHookClientPath(data)) });
    expect(statSync(nativeHookClientPath(data)).mode & 0o777).toBe(0o700);
    expect(existsSync(hookClientPath(data))).toBe(true);
  });

  it('is the perl client where no C compiler is, with nothing said', () => {
    const data = tempDir('corral-client-choice-');
    const choice = chooseHookClient(data, ONE_SHOT, pathWith(tempDir('corral-empty-path-')), false);
    expect(choice).toEqual({ prefix: `${perlProgram()!} ${shellQuote(hookClientPath(data))}` });
    expect(existsSync(nativeHookClientPath(data))).toBe(false);
  });

  it('is the perl client, said so, where the compiler fails; no half-built client is left', () => {
    const data = tempDir('corral-client-choice-');
    const bin = tempDir('corral-broken-cc-');
    writeFileSync(join(bin, 'cc'), '#!/bin/sh\necho "cc: error: no such toolchain" >&2\nexit 1\n', {
      mode: 0o755,
    });
    const choice = chooseHookClient(data, ONE_SHOT, pathWith(bin), false);
    expect(choice.prefix).toBe(`${perlProgram()!} ${shellQuote(hookClientPath(data))}`);
    expect(choice.notice).toBe(
      `the C hook client could not be built (${join(bin, 'cc')} could not build it: cc: error: no such toolchain): the perl client answers instead, about 3 ms more per tool call.`,
    );
    expect(existsSync(nativeHookClientPath(data))).toBe(false);
    expect(existsSync(`${nativeHookClientPath(data)}.c`)).toBe(false);
  });

  it('is the perl client where the compiler makes something that does not run as the client', () => {
    const data = tempDir('corral-client-choice-');
    const bin = tempDir('corral-odd-cc-');
    // "Builds" a program that prints nothing: the check (`--check`) must refuse it.
    writeFileSync(
      join(bin, 'cc'),
      '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done\nprintf "#!/bin/sh\\nexit 0\\n" > "$out"\n',
      { mode: 0o755 },
    );
    const choice = chooseHookClient(data, ONE_SHOT, pathWith(bin), false);
    expect(choice.prefix).toBe(`${perlProgram()!} ${shellQuote(hookClientPath(data))}`);
    expect(choice.notice).toMatch(/^the C hook client could not be built \(the built client did not run/);
    expect(existsSync(nativeHookClientPath(data))).toBe(false);
  });

  it('a dry run builds and writes nothing, and shows the client install would build', () => {
    const data = tempDir('corral-client-choice-');
    const choice = chooseHookClient(data, ONE_SHOT, pathWith(dirname(compiler!)), true);
    expect(choice).toEqual({ prefix: shellQuote(nativeHookClientPath(data)) });
    expect(existsSync(join(data, 'hooks'))).toBe(false);
  });

  it('its source is strict POSIX C: no warning with -std=c99, POSIX.1-2008 alone and -Wall -Wextra -Wpedantic', () => {
    // The same text is built on macOS, which cannot run here: no GNU extension or Linux-only call may slip in.
    const dir = tempDir('corral-client-source-');
    const source = join(dir, 'client.c');
    writeFileSync(source, nativeHookClientSource('/tmp/a \'b"c/é', "/bin/sh '/x y/one-shot.sh'"));
    const strict = spawnSync(
      compiler!,
      [
        '-std=c99',
        '-D_POSIX_C_SOURCE=200809L',
        '-Wall',
        '-Wextra',
        '-Wpedantic',
        '-Werror',
        '-fsyntax-only',
        source,
      ],
      { encoding: 'utf8' },
    );
    expect(strict.stderr).toBe('');
    expect(strict.status).toBe(0);
  });

  it('is built once for one source, and again when what it falls back to changes', () => {
    const data = tempDir('corral-client-choice-');
    const first = buildNativeHookClient(data, ONE_SHOT, compiler!);
    expect(first.path).toBe(nativeHookClientPath(data));
    const built = statSync(first.path!);
    const again = buildNativeHookClient(data, ONE_SHOT, compiler!);
    expect(again.path).toBe(first.path);
    expect(statSync(again.path!).ino).toBe(built.ino);
    const moved = buildNativeHookClient(data, '/usr/bin/corral', compiler!);
    expect(moved.path).toBe(first.path);
    expect(statSync(moved.path!).ino).not.toBe(built.ino);
  });
});
