#!/usr/bin/env node
// The `corral` command: the built CLI (out/, which the npm package ships), or in a checkout not yet
// built, the TypeScript source through tsx. An installed package never needs TypeScript at run time.
// Node's modules are taken with process.getBuiltinModule, not imported: an ESM import of node:fs or
// node:child_process builds their whole namespace (fs/promises, readline, streams, net, dgram…), which
// a long-lived `corral watch` would carry without using.
const { existsSync } = process.getBuiltinModule('node:fs');
const { dirname, join } = process.getBuiltinModule('node:path');
const { fileURLToPath, pathToFileURL } = process.getBuiltinModule('node:url');

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'out', 'main', 'corral.js');
// An agent waits for its hooks: they skip the CLI (its config, RE2) for the hook's own entry.
const hook = join(root, 'out', 'main', 'corral-hook.js');
// import() takes a URL: a path whose directories hold `#`, `%` or `?` is not one.
if (process.argv[2] === 'hook' && existsSync(hook)) {
  try {
    await import(pathToFileURL(hook).href);
  } catch (err) {
    // The agent waits on its hook: whatever fails here, it exits 0 and prints nothing on stdout.
    process.stderr.write(
      `corral hook: could not load ${hook}: ${String(err?.message ?? err).split('\n')[0]}\n`,
    );
    process.exitCode = 0;
  }
} else if (existsSync(built)) {
  await import(pathToFileURL(built).href);
} else {
  const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  if (!existsSync(tsx)) {
    process.stderr.write(
      `corral: ${built} is missing and tsx is not installed: this copy of corral was never built (it was packed with ` +
        `npm's scripts turned off, which skips the build). In the checkout run \`npm run pack\` and ` +
        `install the tarball it names, or run \`npm run build\` in ${root}\n`,
    );
    process.exit(1);
  }
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const result = spawnSync(
    process.execPath,
    [tsx, join(root, 'main', 'cli', 'corral.ts'), ...process.argv.slice(2)],
    {
      stdio: 'inherit',
    },
  );
  process.exitCode = result.status ?? 1;
}
