import { readlinkSync } from 'node:fs';
import type { HeldPipe } from '../../model/held-pipe';

/**
 * What a held pipe's two descriptors link to now (`socket:[123] socket:[124]`: the holder's, then the
 * reader's); null when either is closed or its process gone. Two readlinks, where listing both fd
 * tables again costs a readdir and a readlink per descriptor of each: the same text as when the pipe
 * was found, and the holder still holds what the reader reads.
 */
export function heldPipeLinks(pipe: HeldPipe, procRoot = '/proc'): string | null {
  try {
    const holder = readlinkSync(`${procRoot}/${pipe.holderPid}/fd/${pipe.holderFd}`);
    const reader = readlinkSync(`${procRoot}/${pipe.readerPid}/fd/${pipe.readerFd}`);
    return `${holder} ${reader}`;
  } catch {
    return null;
  }
}
