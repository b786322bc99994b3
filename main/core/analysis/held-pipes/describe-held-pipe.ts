import type { HeldPipe } from '../../model/held-pipe';

/**
 * One line for people: `pipe:[12345] fd 1 of pid 678 (sleep 5) → read by pid 600 (claude)`.
 * `labelOf` names a process (command line or executable name); unknown ones are left unnamed.
 */
export function describeHeldPipe(
  pipe: HeldPipe,
  labelOf: (pid: number) => string | null | undefined,
): string {
  const who = (pid: number): string => {
    const label = labelOf(pid);
    return label ? `pid ${pid} (${label})` : `pid ${pid}`;
  };
  return `${pipe.kind}:[${pipe.inode}] fd ${pipe.holderFd} of ${who(pipe.holderPid)} → read by ${who(pipe.readerPid)}`;
}
