import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Real builds for the spawn-storm tests and measurements: many short compilers, which must not look
// like a fork loop. Each lives in a temporary directory the caller removes.

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** A C project of `files` generated sources and a Makefile: `make -j4` runs gcc, cc1 and as per file. */
export function makeProject(files = 200): string {
  const dir = mkdtempSync(join(tmpdir(), 'corral-make-'));
  const objects: string[] = [];
  for (let i = 0; i < files; i++) {
    writeFileSync(
      join(dir, `f${i}.c`),
      `int f${i}(int x) {\n  int s = 0;\n  for (int k = 0; k < x; k++) s += k * ${i + 1};\n  return s;\n}\n`,
    );
    objects.push(`f${i}.o`);
  }
  const decls = objects.map((_, i) => `int f${i}(int);`).join('\n');
  const calls = objects.map((_, i) => `f${i}(3)`).join(' + ');
  writeFileSync(join(dir, 'main.c'), `${decls}\nint main(void) { return (${calls}) == 0; }\n`);
  writeFileSync(
    join(dir, 'Makefile'),
    [
      `OBJS = main.o ${objects.join(' ')}`,
      'prog: $(OBJS)',
      '\tgcc -o $@ $(OBJS)',
      '%.o: %.c',
      '\tgcc -O1 -c $< -o $@',
      '',
    ].join('\n'),
  );
  return dir;
}

/** A TypeScript project of `projects` referenced projects of `filesEach` files, for `tsc -b`. */
export function tscProject(projects = 4, filesEach = 30): string {
  const dir = mkdtempSync(join(tmpdir(), 'corral-tsc-'));
  const references: Array<{ path: string }> = [];
  for (let p = 0; p < projects; p++) {
    const sub = join(dir, `p${p}`);
    mkdirSync(join(sub, 'src'), { recursive: true });
    for (let f = 0; f < filesEach; f++)
      writeFileSync(
        join(sub, 'src', `m${f}.ts`),
        `export interface R${f} { n: number; s: string }\nexport const m${f} = (x: number): R${f} => ({ n: x * ${f}, s: String(x) });\n`,
      );
    const deps = p > 0 ? [{ path: `../p${p - 1}` }] : [];
    writeFileSync(
      join(sub, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { composite: true, outDir: 'out', rootDir: 'src', strict: true, target: 'ES2022' },
        include: ['src'],
        references: deps,
      }),
    );
    references.push({ path: `p${p}` });
  }
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ files: [], references }));
  return dir;
}

/** This repository's package files in a temporary directory, for `npm ci`. */
export function npmCiCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'corral-npmci-'));
  for (const file of ['package.json', 'package-lock.json', '.npmrc'])
    copyFileSync(join(REPO, file), join(dir, file));
  return dir;
}

/** The TypeScript compiler of this checkout (its node_modules). */
export const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * What `npm ci --offline` needs from the environment: the node running the tests on PATH, and the real
 * HOME's npm cache (tests run with a temporary HOME, whose cache is empty).
 */
export function npmEnv(): Record<string, string> {
  const realHome = process.env.CORRAL_TEST_REAL_HOME || homedir();
  const env: Record<string, string> = {
    PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    npm_config_cache: join(realHome, '.npm'),
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  for (const key of ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR'])
    if (process.env[key]) env[key] = process.env[key]!;
  return env;
}
