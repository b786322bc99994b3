import { mkdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Inside node_modules, so the bundle's external packages resolve from the repository's node_modules.
const OUT_DIR = join(ROOT, 'node_modules', '.cache', 'corral-bench');
// The shipped build (electron-vite) leaves every runtime dependency in node_modules; so does the bench,
// which also keeps UMD packages such as jsonc-parser, whose dynamic requires esbuild cannot bundle.
const RUNTIME_DEPENDENCIES = Object.keys(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> })
    .dependencies,
);

/**
 * Bundles a TypeScript entry into one ES module that plain `node` runs, so a process the bench measures
 * costs what the shipped JavaScript costs, without tsx (whose loader thread alone costs more CPU than
 * the monitor it would be running). Runtime dependencies stay external, as in the shipped build.
 */
export async function bundleForNode(entry: string): Promise<string> {
  mkdirSync(OUT_DIR, { recursive: true });
  const outfile = join(OUT_DIR, `${basename(entry, '.ts')}.mjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: [...RUNTIME_DEPENDENCIES, 'systeminformation', 'esbuild'],
    banner: {
      js: "import { createRequire as corralRequire } from 'node:module'; const require = corralRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return outfile;
}
