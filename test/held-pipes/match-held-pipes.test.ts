import { describe, expect, it } from 'vitest';
import type { PipeFd } from '../../main/core/model/held-pipe';
import { matchHeldPipes, type PipeListing } from '../../main/core/analysis/held-pipes/match-held-pipes';
import { describeHeldPipe } from '../../main/core/analysis/held-pipes/describe-held-pipe';

const AGENT = 600;
const WRAPPER = 650;
const pipe = (fd: number, inode: number, end: PipeFd['end']): PipeFd => ({ fd, kind: 'pipe', inode, end });
const socket = (fd: number, inode: number): PipeFd => ({ fd, kind: 'socket', inode, end: 'rdwr' });
const listing = (pid: number, ...pipes: PipeFd[]): PipeListing => ({ pid, pipes });

describe('matchHeldPipes', () => {
  it.each([
    {
      name: 'a descendant holding the write end of the agent read pipe',
      readers: [listing(AGENT, pipe(20, 111, 'read'))],
      holders: [listing(678, pipe(0, 5, 'read'), pipe(1, 111, 'write'))],
      held: [{ holderPid: 678, holderFd: 1, kind: 'pipe', inode: 111, readerPid: AGENT, readerFd: 20 }],
    },
    {
      name: 'stdout and stderr of several holders on one pipe',
      readers: [listing(AGENT, pipe(20, 111, 'read'))],
      holders: [
        listing(678, pipe(1, 111, 'write'), pipe(2, 111, 'write')),
        listing(679, pipe(1, 111, 'write')),
      ],
      held: [
        { holderPid: 678, holderFd: 1, kind: 'pipe', inode: 111, readerPid: AGENT, readerFd: 20 },
        { holderPid: 678, holderFd: 2, kind: 'pipe', inode: 111, readerPid: AGENT, readerFd: 20 },
        { holderPid: 679, holderFd: 1, kind: 'pipe', inode: 111, readerPid: AGENT, readerFd: 20 },
      ],
    },
    {
      name: 'rdwr ends: a reader opened read-write, a holder opened read-write',
      readers: [listing(AGENT, pipe(30, 222, 'rdwr'))],
      holders: [listing(678, pipe(4, 222, 'rdwr'))],
      held: [{ holderPid: 678, holderFd: 4, kind: 'pipe', inode: 222, readerPid: AGENT, readerFd: 30 }],
    },
    {
      name: 'a holder holding only the read end holds nothing',
      readers: [listing(AGENT, pipe(20, 111, 'read'))],
      holders: [listing(678, pipe(0, 111, 'read'))],
      held: [],
    },
    {
      name: 'the agent writing into a pipe (a write end on the reader side) is no reader',
      readers: [listing(AGENT, pipe(21, 111, 'write'))],
      holders: [listing(678, pipe(1, 111, 'write'))],
      held: [],
    },
    {
      name: 'a pipe read by some process that is not the agent',
      readers: [listing(AGENT, pipe(20, 111, 'read'))],
      holders: [listing(678, pipe(1, 999, 'write')), listing(700, pipe(0, 999, 'read'))],
      held: [],
    },
    {
      name: 'the wrapper still alive and reading a command substitution',
      readers: [
        listing(AGENT, pipe(20, 111, 'read')),
        listing(WRAPPER, pipe(1, 111, 'write'), pipe(3, 333, 'read')),
      ],
      holders: [listing(678, pipe(1, 333, 'write'))],
      held: [{ holderPid: 678, holderFd: 1, kind: 'pipe', inode: 333, readerPid: WRAPPER, readerFd: 3 }],
    },
    {
      name: 'the agent is preferred over the wrapper when both read one pipe',
      readers: [listing(AGENT, pipe(20, 111, 'read')), listing(WRAPPER, pipe(5, 111, 'read'))],
      holders: [listing(678, pipe(1, 111, 'write'))],
      held: [{ holderPid: 678, holderFd: 1, kind: 'pipe', inode: 111, readerPid: AGENT, readerFd: 20 }],
    },
    {
      name: 'a reader listed as holder too is not its own holder',
      readers: [listing(AGENT, pipe(20, 111, 'read'), pipe(21, 111, 'write'))],
      holders: [listing(AGENT, pipe(20, 111, 'read'), pipe(21, 111, 'write'))],
      held: [],
    },
    {
      name: 'unreadable listings on either side',
      readers: [{ pid: AGENT, pipes: null }],
      holders: [listing(678, pipe(1, 111, 'write'))],
      held: [],
    },
    {
      name: 'a vanished holder',
      readers: [listing(AGENT, pipe(20, 111, 'read'))],
      holders: [{ pid: 678, pipes: null }],
      held: [],
    },
    {
      name: 'pipe and socket inodes never mix',
      readers: [listing(AGENT, socket(20, 111))],
      holders: [listing(678, pipe(1, 111, 'write'))],
      held: [],
    },
  ])('$name', ({ readers, holders, held }) => {
    expect(matchHeldPipes(readers, holders)).toEqual(held);
  });

  it('pairs a socketpair through its peer, never through equal inodes', () => {
    const readers = [listing(AGENT, socket(19, 1536), socket(21, 1538), socket(40, 1600))];
    const holders = [listing(678, socket(1, 1537), socket(2, 1539), socket(3, 1600), socket(4, 1700))];
    const peers = new Map([
      [1536, 1537],
      [1537, 1536],
      [1538, 1539],
      [1539, 1538],
      [1700, 1701],
    ]);
    expect(matchHeldPipes(readers, holders, peers)).toEqual([
      { holderPid: 678, holderFd: 1, kind: 'socket', inode: 1537, readerPid: AGENT, readerFd: 19 },
      { holderPid: 678, holderFd: 2, kind: 'socket', inode: 1539, readerPid: AGENT, readerFd: 21 },
    ]);
    expect(matchHeldPipes(readers, holders)).toEqual([]);
  });
});

describe('describeHeldPipe', () => {
  const held = {
    holderPid: 678,
    holderFd: 1,
    kind: 'pipe' as const,
    inode: 12345,
    readerPid: 600,
    readerFd: 20,
  };

  it('names the pipe, the holder and the reader', () => {
    const labels = new Map([
      [678, 'sleep 5'],
      [600, 'claude'],
    ]);
    expect(describeHeldPipe(held, (pid) => labels.get(pid))).toBe(
      'pipe:[12345] fd 1 of pid 678 (sleep 5) → read by pid 600 (claude)',
    );
  });

  it('leaves unknown processes unnamed and says socket for a socketpair', () => {
    expect(describeHeldPipe({ ...held, kind: 'socket' }, () => null)).toBe(
      'socket:[12345] fd 1 of pid 678 → read by pid 600',
    );
  });
});
