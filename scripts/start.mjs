#!/usr/bin/env node
// `npm start`: the desktop app when it can run here, otherwise `corral serve` in the browser.
// The desktop app needs Electron's binary (the `electron` package has no install script, so npm install
// does not fetch it: we try once here) and a display.
import console from 'node:console';
import process from 'node:process';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const electronDir = join(root, 'node_modules', 'electron');

function electronBinary() {
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

function missingDisplay() {
  if (process.platform !== 'linux') return null;
  return process.env.DISPLAY || process.env.WAYLAND_DISPLAY
    ? null
    : 'no display (DISPLAY and WAYLAND_DISPLAY are unset)';
}

function fetchElectronOnce() {
  if (!existsSync(join(electronDir, 'install.js'))) return false;
  const result = spawnSync(process.execPath, [join(electronDir, 'install.js')], {
    cwd: electronDir,
    stdio: 'pipe',
    timeout: 300_000,
  });
  return result.status === 0 && electronBinary() !== null;
}

/** Repeats of one signal this close together are one Ctrl-C that reached us twice (the terminal and npm). */
const SAME_SIGNAL_MS = 1_000;

/**
 * Runs the app in a process group of its own, so that it hears each Ctrl-C once: from us. A terminal
 * sends SIGINT to its whole foreground group, and `npm start` forwards it again; were the app in our
 * group it would hear two and take the second for "stop now, without finishing" (exit 130). A second
 * Ctrl-C pressed later is forwarded: the user means it.
 */
function run(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', detached: true });
  const lastSent = new Map();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.on(signal, () => {
      const now = Date.now();
      if (now - (lastSent.get(signal) ?? -Infinity) < SAME_SIGNAL_MS) return;
      lastSent.set(signal, now);
      child.kill(signal);
    });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

function ensureBuilt() {
  const built = ['out/main/index.js', 'out/preload/index.js', 'out/renderer/index.html'].every((f) =>
    existsSync(join(root, f)),
  );
  if (built) return;
  const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function startDesktop(binary) {
  ensureBuilt();
  // Chromium refuses to start as root with its OS sandbox on; the renderer stays context-isolated.
  const args = process.platform === 'linux' && process.getuid?.() === 0 ? ['--no-sandbox', root] : [root];
  run(binary, args);
}

function startServe(reason) {
  console.log(
    `corral: ${reason}; starting \`corral serve\` (open the URL it prints) instead of the desktop app`,
  );
  ensureBuilt();
  const built = join(root, 'out', 'main', 'corral.js');
  // `npm start -- --port N` reaches `corral serve`.
  const args = ['serve', ...process.argv.slice(2)];
  if (existsSync(built)) run(process.execPath, [built, ...args]);
  else run('npm', ['run', '--silent', 'corral', '--', ...args]);
}

const noDisplay = missingDisplay();
const binary = electronBinary();
if (noDisplay) startServe(noDisplay);
else if (binary) startDesktop(binary);
else if (fetchElectronOnce()) startDesktop(electronBinary());
else startServe('the Electron binary is not installed and could not be downloaded');
