// The test suite must never touch the real user's Corral data, config or agents' hook settings (tests
// run with a temporary HOME, test/support/temp-home.ts). `snapshot <file>` records those places (every
// entry below them: type, size, mtime) before the run; `compare <file>` fails, saying what changed,
// when they differ after it.
import { lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';

function realPlaces(env = process.env) {
  const home = homedir();
  const xdgData =
    env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : join(home, '.local', 'share');
  const xdgConfig =
    env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(home, '.config');
  const mac = join(home, 'Library', 'Application Support', 'Corral');
  return [
    env.CORRAL_DATA_DIR?.trim() || join(xdgData, 'corral'),
    env.CORRAL_CONFIG?.trim() ? dirname(env.CORRAL_CONFIG.trim()) : join(xdgConfig, 'corral'),
    mac,
    join(env.CLAUDE_CONFIG_DIR?.trim() || join(home, '.claude'), 'settings.json'),
    join(env.CODEX_HOME?.trim() || join(home, '.codex'), 'hooks.json'),
    join(home, '.gemini', 'settings.json'),
    join(home, '.qwen', 'settings.json'),
  ];
}

function describe(path) {
  try {
    const st = lstatSync(path);
    const type = st.isDirectory() ? 'dir' : st.isSymbolicLink() ? 'link' : st.isFile() ? 'file' : 'other';
    return `${type} ${st.isDirectory() ? '-' : st.size} ${st.mtimeMs}`;
  } catch {
    return null;
  }
}

function walk(path, out) {
  const what = describe(path);
  if (what === null) return;
  out[path] = what;
  if (!what.startsWith('dir ')) return;
  let names = [];
  try {
    names = readdirSync(path);
  } catch {
    return;
  }
  for (const name of names) walk(join(path, name), out);
}

function snapshot() {
  const out = {};
  for (const place of realPlaces()) walk(place, out);
  return out;
}

const [command, file] = process.argv.slice(2);
if (command === 'snapshot' && file) {
  writeFileSync(file, JSON.stringify(snapshot()));
} else if (command === 'compare' && file) {
  const before = JSON.parse(readFileSync(file, 'utf8'));
  const after = snapshot();
  const changes = [];
  for (const [path, what] of Object.entries(after)) {
    if (!(path in before)) changes.push(`added    ${path} (${what})`);
    else if (before[path] !== what) changes.push(`changed  ${path} (${before[path]} -> ${what})`);
  }
  for (const path of Object.keys(before)) if (!(path in after)) changes.push(`removed  ${path}`);
  if (changes.length > 0) {
    console.error(
      `The test run changed the real user's Corral data, config or hook settings:\n${changes.join('\n')}`,
    );
    process.exit(1);
  }
} else {
  console.error('usage: node scripts/real-home-guard.mjs snapshot|compare <file>');
  process.exit(2);
}
