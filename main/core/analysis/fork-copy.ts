import type { ProcessRecord } from '../model/process-record';

/**
 * Whether `child` is still a copy of `parent`, forked and not yet exec'd: a child bears its parent's
 * name, argv, owner and environment until its exec replaces them, so a tool call's shell read in that
 * window looks like the agent itself. A relaunch of an agent differs: a new argv (Gemini CLI adds
 * `--max-old-space-size`) or a new environment (`…_NO_RELAUNCH=true` among the markers).
 */
export function isForkCopy(child: ProcessRecord, parent: ProcessRecord): boolean {
  return (
    child.ppid === parent.pid &&
    parent.startKey <= child.startKey &&
    child.name === parent.name &&
    child.uid === parent.uid &&
    sameList(child.argv, parent.argv) &&
    sameMarkers(child.markers, parent.markers)
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

function sameMarkers(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => b[k] === a[k]);
}
