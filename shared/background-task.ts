// Groups that run on purpose: kept by the user (`corral keep`), or a background task its agent started
// deliberately (Claude Code's `run_in_background: true`, Qwen Code's `is_background: true`) while the
// agent's session lives. Neither is a leak: no notification for leaving, no policy `stop`, not counted
// as a leftover in the metrics. Pure; shared by the core, the front ends and the renderer.
import type { GroupView } from './model';

/** The words a live background task is shown with, where a kept group says "kept, 3 h left". */
export const BACKGROUND_TASK_LABEL = 'background task';

/**
 * A tool call the agent started in the background on purpose (or one its own latest task list names, and
 * not one that list dropped), while its session's agent is known to run
 * (not guessed) and no hook reported the session ended. Once the agent is gone it is a leftover like any
 * other.
 */
export function isLiveBackgroundTask(group: Pick<GroupView, 'toolCall' | 'session' | 'flags'>): boolean {
  const call = group.toolCall;
  return (
    (call?.background === true || call?.agentTask === 'running') &&
    call.agentTask !== 'ended' &&
    group.session?.agentAlive === true &&
    !group.flags.includes('session-ended')
  );
}

/** Kept by the user, or a live background task: running on purpose, so never a leak. */
export function runsOnPurpose(group: Pick<GroupView, 'kept' | 'toolCall' | 'session' | 'flags'>): boolean {
  return Boolean(group.kept) || isLiveBackgroundTask(group);
}
