/** What `corral kill` prints for a group that is already gone: the teardown contract's `already-gone`, exit 0. */
export function alreadyGone(
  groupId: string,
  message: string,
  json: boolean,
  out: (text: string) => void,
): number {
  if (json) {
    out(
      JSON.stringify({
        groupId,
        outcome: 'already-gone',
        refused: null,
        clean: true,
        processes: [],
        signals: [],
      }),
    );
  } else out(`corral kill: ${message}. Nothing to stop.`);
  return 0;
}
