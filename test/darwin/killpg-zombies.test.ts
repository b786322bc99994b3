import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { cleanEnv, trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { darwinKillpg } from './darwin-killpg';

// The rule the darwin stand-in (darwin-killpg.ts) copies from xnu, checked against the kernel it runs
// on: kill(-pgid) of a group whose only member is a zombie. Linux counts the zombie (success); macOS
// filters zombies out of the group walk and answers EPERM (bsd/kern/kern_sig.c killpg1). On a Mac
// (CI's macOS jobs) this reads the real answer; here it shows the stand-in differs from Linux exactly so.

const stat = (pid: number): string => {
  try {
    return execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
};

/** A perl parent (own group) that forks a child into its own session and never reaps it. */
async function zombieOnlyGroup(): Promise<number> {
  const parent = spawn(
    'perl',
    [
      '-e',
      'use POSIX; my $pid = fork(); if ($pid == 0) { setsid(); exec "sleep", "600" } $| = 1; print "$pid\\n"; sleep 600',
    ],
    { detached: true, stdio: ['ignore', 'pipe', 'ignore'], env: cleanEnv() },
  );
  trackGroup(parent.pid!);
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: parent.stdout! }).once('line', resolve),
  );
  const child = Number(line);
  trackGroup(child);
  await waitFor('the child running sleep', () => (stat(child) !== '' ? true : undefined));
  process.kill(child, 'SIGKILL');
  await waitFor('the child to be an unreaped zombie', () => (stat(child).startsWith('Z') ? true : undefined));
  return child;
}

describe('kill(-pgid) of a group left with a zombie only', () => {
  it(`answers as ${process.platform === 'darwin' ? 'xnu' : 'Linux'} does, and the stand-in as xnu does`, async () => {
    const pgid = await zombieOnlyGroup();
    if (process.platform === 'darwin') {
      expect(() => process.kill(-pgid, 0)).toThrow(expect.objectContaining({ code: 'EPERM' }));
    } else {
      expect(() => process.kill(-pgid, 0)).not.toThrow();
      expect(() => darwinKillpg(pgid, 0)).toThrow(expect.objectContaining({ code: 'EPERM' }));
    }
  });
});
