import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listPipeFds, parsePipeEnd } from '../../main/core/sampling/linux/pipe-fds';
import { groupMembers } from '../support/proc';
import { spawnGroup, trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

describe('parsePipeEnd', () => {
  it.each([
    ['pos:\t0\nflags:\t00\nmnt_id:\t15\nino:\t1\n', 'read'],
    ['pos:\t0\nflags:\t01\nmnt_id:\t15\n', 'write'],
    ['pos:\t0\nflags:\t02\nmnt_id:\t15\n', 'rdwr'],
    ['pos:\t0\nflags:\t02004000\nmnt_id:\t15\n', 'read'], // O_CLOEXEC | O_NONBLOCK, read end
    ['pos:\t0\nflags:\t02004001\nmnt_id:\t15\n', 'write'],
    ['pos:\t0\nflags:\t03\n', null], // not a valid access mode
    ['pos:\t0\nmnt_id:\t15\n', null],
    ['', null],
  ])('%j → %s', (fdinfo, end) => {
    expect(parsePipeEnd(fdinfo)).toBe(end);
  });
});

/** The pid of the first sleep of `sleep 30 | sleep 30`, whose stdout is the pipe. */
function writingSleep(): Promise<number> {
  const group = spawnGroup('sleep 30 | sleep 30');
  return waitFor(
    'the writing sleep',
    () =>
      groupMembers(group.pgid).find((s) => listPipeFds(s.pid)?.some((p) => p.fd === 1 && p.kind === 'pipe'))
        ?.pid,
  );
}

describe('listPipeFds', () => {
  it('lists both ends of a real pipe between two processes, with their direction', async () => {
    const group = spawnGroup('sleep 30 | sleep 30');
    const sleeps = await waitFor('both sleeps', () => {
      const pids = groupMembers(group.pgid)
        .map((s) => s.pid)
        .filter((pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'sleep');
      return pids.length === 2 ? pids : undefined;
    });
    // Only the stdio descriptors: a test runner may pass its own inherited pipes down to every child.
    const listings = sleeps.map((pid) => listPipeFds(pid)!.filter((p) => p.fd <= 2));
    const writer = listings.find((l) => l.some((p) => p.fd === 1 && p.kind === 'pipe'))!;
    const reader = listings.find((l) => l.some((p) => p.fd === 0 && p.kind === 'pipe'))!;
    expect(writer).toEqual([{ fd: 1, kind: 'pipe', inode: expect.any(Number), end: 'write' }]);
    expect(reader).toEqual([{ fd: 0, kind: 'pipe', inode: writer[0]!.inode, end: 'read' }]);
  });

  it('reports a pipe opened read-write as rdwr', async () => {
    const writerPid = await writingSleep();
    const inode = listPipeFds(writerPid)!.find((p) => p.fd === 1)!.inode;
    // Linux lets a pipe be reopened through /proc with O_RDWR: one descriptor, both ends.
    const fd = openSync(`/proc/${writerPid}/fd/1`, 'r+');
    try {
      expect(listPipeFds(process.pid)).toContainEqual({ fd, kind: 'pipe', inode, end: 'rdwr' });
    } finally {
      closeSync(fd);
    }
  });

  it('returns null for a pid that does not exist, and for a process root without it', () => {
    expect(listPipeFds(0x3ffffff)).toBeNull();
    expect(listPipeFds(process.pid, '/nonexistent-proc')).toBeNull();
  });

  it('reads the end only of the pipes asked for, and takes a socket as read-write, as its fdinfo says', async () => {
    const writerPid = await writingSleep();
    expect(listPipeFds(writerPid, '/proc', () => false)!.filter((p) => p.fd <= 2)).toEqual([]);
    const inode = listPipeFds(writerPid)!.find((p) => p.fd === 1)!.inode;
    expect(listPipeFds(writerPid, '/proc', (i) => i === inode)!.find((p) => p.fd === 1)).toEqual({
      fd: 1,
      kind: 'pipe',
      inode,
      end: 'write',
    });

    // Node hands a child socketpairs for piped stdio: the child's stdout is a socket.
    const child = spawn('sleep', ['30'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    trackGroup(child.pid!);
    const socket = await waitFor("the child's socket", () =>
      listPipeFds(child.pid!, '/proc', () => false)?.find((p) => p.fd === 1),
    );
    expect(socket).toMatchObject({ kind: 'socket', end: 'rdwr' });
    expect(parsePipeEnd(readFileSync(`/proc/${child.pid}/fdinfo/1`, 'latin1'))).toBe('rdwr');
  });
});
