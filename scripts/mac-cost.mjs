#!/usr/bin/env node
// The packaged app's own cost on a Mac, as users compare it with Activity Monitor: CPU seconds used by
// all its processes (main and helpers) over a window, and their physical footprint at its end.
//   node scripts/mac-cost.mjs <path to Corral.app> <seconds> <out.json>
// CPU comes from `ps -axo pid=,time=,rss=,command=` before and after the window (a process started in
// between counts from zero); the footprint from `footprint -p <pid>` where it answers, else ps's RSS.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** ps's cputime ("[dd-][hh:]mm:ss.cc") in seconds; null when it is not that shape. */
export function parsePsTime(text) {
  const m = /^(?:(\d+)-)?(?:(\d+):)?(\d+):(\d+(?:\.\d+)?)$/.exec(text.trim());
  if (!m) return null;
  const [, days, hours, minutes, seconds] = m;
  return Number(days ?? 0) * 86400 + Number(hours ?? 0) * 3600 + Number(minutes) * 60 + Number(seconds);
}

/**
 * The app's processes in `ps -axo pid=,time=,rss=,command=` output: those whose command is inside the
 * bundle. The main process shows the path it was started by (CI starts it by a relative one), Chromium's
 * helpers their absolute path, so both spellings of the bundle count.
 */
export function appProcesses(psOutput, appPath, cwd = process.cwd()) {
  const bundles = [...new Set([appPath, resolve(cwd, appPath)])].map(
    (p) => `${p.replace(/\/+$/, '')}/Contents/`,
  );
  const found = [];
  for (const line of psOutput.split('\n')) {
    const m = /^\s*(\d+)\s+(\S+)\s+(\d+)\s+(.*)$/.exec(line);
    if (!m || !bundles.some((inside) => m[4].startsWith(inside))) continue;
    const cpuSeconds = parsePsTime(m[2]);
    if (cpuSeconds === null) continue;
    found.push({ pid: Number(m[1]), cpuSeconds, rssKiB: Number(m[3]), command: m[4] });
  }
  return found;
}

/** CPU seconds all the app's processes used between two ps readings. */
export function cpuBetween(before, after) {
  const start = new Map(before.map((p) => [p.pid, p.cpuSeconds]));
  return after.reduce((sum, p) => sum + Math.max(0, p.cpuSeconds - (start.get(p.pid) ?? 0)), 0);
}

/** The footprint `footprint -p` prints ("… Footprint: 87 MB …"), in bytes; null if absent. */
export function parseFootprint(text) {
  const m = /footprint:\s*([\d.]+)\s*(B|KB|MB|GB)/i.exec(text);
  if (!m) return null;
  const unit = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[m[2].toUpperCase()];
  return Math.round(Number(m[1]) * unit);
}

function readPs() {
  return execFileSync('ps', ['-axo', 'pid=,time=,rss=,command='], {
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'C' },
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** `footprint -p <pid>`, else `footprint <pid>` (its options differ between macOS releases). */
function footprintOf(pid) {
  for (const args of [['-p', String(pid)], [String(pid)]]) {
    try {
      const bytes = parseFootprint(
        execFileSync('footprint', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
      );
      if (bytes !== null) return bytes;
    } catch {
      // Try the other form; the caller falls back to ps's RSS.
    }
  }
  return null;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [app, secondsArg, out] = process.argv.slice(2);
  const seconds = Number(secondsArg);
  if (!app || !(seconds > 0) || !out) {
    console.error('usage: node scripts/mac-cost.mjs <Corral.app> <seconds> <out.json>');
    process.exit(2);
  }
  const before = appProcesses(readPs(), app);
  if (before.length === 0) {
    console.error(`no process of ${app} is running`);
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const after = appProcesses(readPs(), app);
  const footprints = after.map((p) => ({ pid: p.pid, bytes: footprintOf(p.pid), rssKiB: p.rssKiB }));
  const footprintBytes = footprints.reduce((n, f) => n + (f.bytes ?? f.rssKiB * 1024), 0);
  const cpuSeconds = cpuBetween(before, after);
  const result = {
    app,
    windowSeconds: seconds,
    processes: after.length,
    cpuSeconds: Number(cpuSeconds.toFixed(2)),
    cpuPercentOfOneCore: Number(((100 * cpuSeconds) / seconds).toFixed(3)),
    footprintMiB: Number((footprintBytes / 1024 ** 2).toFixed(1)),
    footprintSource: footprints.every((f) => f.bytes !== null) ? 'footprint' : 'footprint, else ps rss',
    perProcess: after.map((p) => ({
      ...p,
      footprint: footprints.find((f) => f.pid === p.pid)?.bytes ?? null,
    })),
  };
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `${result.processes} processes: ${result.cpuSeconds} CPU s in ${seconds} s (${result.cpuPercentOfOneCore} % of a core), footprint ${result.footprintMiB} MiB`,
  );
}
