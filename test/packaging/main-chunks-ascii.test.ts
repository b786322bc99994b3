// Node keeps every file it loads as a V8 string while it runs; a single character beyond Latin-1 makes
// V8 store the whole file two bytes a character. The main process's build is ASCII
// (electron.vite.config.ts, charset 'ascii'), so a long-lived `corral watch` carries its chunks at one byte.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const OUT_MAIN = fileURLToPath(new URL('../../out/main', import.meta.url));
const built = existsSync(join(OUT_MAIN, 'corral.js'));
if (!built) console.warn(`[skipped] main chunks ASCII test: ${OUT_MAIN} is not built (npm run build)`);

function scripts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? scripts(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );
}

describe.skipIf(!built)('the built main process', () => {
  it('is ASCII in every file, the CLI chunks included', () => {
    const files = scripts(OUT_MAIN);
    expect(files.some((f) => f.includes(`${join('chunks', 'cli-main')}`))).toBe(true);
    const notAscii = files.filter((f) => [...readFileSync(f)].some((byte) => byte > 0x7f));
    expect(notAscii).toEqual([]);
  });
});
