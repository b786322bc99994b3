import { execFileSync } from 'node:child_process';

/** A value `getconf` prints (a separate file: the hook, which reads auxv, never loads child_process). */
export function getconf(name: string, fallback: number): number {
  try {
    const n = Number(
      execFileSync('getconf', [name], { encoding: 'utf8', env: { LC_ALL: 'C', PATH: process.env.PATH } }),
    );
    return Number.isFinite(n) && n > 0 ? n : fallback;
  } catch {
    return fallback;
  }
}
