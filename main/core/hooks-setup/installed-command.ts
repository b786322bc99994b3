import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { executablesOnPath, isExecutableFile } from './executables-on-path';

/**
 * The package root of the running CLI when it runs from an installed package (a `corral` directory
 * inside `node_modules`, as `npm install -g` and Homebrew's formula lay it out), else null (a checkout).
 */
export function installedPackageRoot(script: string): string | null {
  let dir = dirname(realpathSync(script));
  for (let i = 0; i < 4; i++) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string };
      if (pkg.name !== 'corral') return null;
      return basename(dirname(dir)) === 'node_modules' ? dir : null;
    }
    dir = dirname(dir);
  }
  return null;
}

/**
 * For an installed package, the `corral` command that runs it, by a path that survives upgrades:
 * the first `corral` on PATH that resolves to this package's launcher, else the link npm put in
 * `<prefix>/bin` (package in `<prefix>/lib/node_modules/corral`). Null in a checkout, or when no
 * such command exists (the caller then names the package's files).
 */
export function installedCorralCommand(
  script: string,
  env: Readonly<Record<string, string | undefined>>,
): string | null {
  const root = installedPackageRoot(script);
  if (!root) return null;
  const launcher = realpathSync(join(root, 'bin', 'corral.mjs'));
  const pointsHere = (candidate: string): boolean =>
    isExecutableFile(candidate) && realpathSync(candidate) === launcher;
  const onPath = executablesOnPath('corral', env).find(pointsHere);
  if (onPath) return onPath;
  const npmLink = join(root, '..', '..', '..', 'bin', 'corral');
  return pointsHere(npmLink) ? realpathSync(dirname(npmLink)) + '/corral' : null;
}
