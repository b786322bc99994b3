import {
  HOOK_AGENT_SPECS,
  type HookAgent,
  type HookAgentSpec,
  type HookEventSpec,
} from '../core/hooks-setup/hook-agents';
import { recordAgentTasks, taskListOf } from '../core/storage/agent-tasks';
import { recordSessionEnded } from '../core/storage/ended-sessions';
import { forgetSessionToolCalls } from './tool-call-starts';

/** The payload fields every hook event may carry that Corral reads. */
export interface HookPayload {
  session_id?: unknown;
  tool_use_id?: unknown;
  tool_name?: unknown;
  tool_input?: unknown;
  /** SessionEnd's why (Claude Code: `clear`, `logout`, `prompt_input_exit`, `other` for `claude stop`; Gemini CLI: `exit`). */
  reason?: unknown;
}

/** One hook event as the agent sent it, read the same by the one-shot hook and the service. */
export interface HookEvent<P extends HookPayload> {
  spec: HookAgentSpec;
  eventSpec: HookEventSpec;
  payload: P;
  /** '' when the payload names none. */
  sessionId: string;
}

/** Reads a hook event's body. Throws on an event Corral does not handle or a body that is not JSON. */
export function readHookEvent<P extends HookPayload>(
  agent: HookAgent,
  event: string,
  body: string,
): HookEvent<P> {
  const spec = HOOK_AGENT_SPECS[agent];
  const eventSpec = spec.events.find((e) => e.event === event);
  if (!eventSpec) throw new Error(`${spec.label} has no hook event '${event}' Corral handles`);
  const payload = JSON.parse(body) as P;
  const sessionId = typeof payload.session_id === 'string' ? payload.session_id : '';
  return { spec, eventSpec, payload, sessionId };
}

/**
 * A session said it ended: recorded for `ps`, policies and its leftovers' incidents (with the payload's
 * `reason`, at most 64 characters), and its unanswered tool calls forgotten.
 */
export function noteSessionEnded(
  dataDir: string,
  agent: HookAgent,
  sessionId: string,
  now: number,
  payload: HookPayload = {},
): void {
  if (sessionId === '') return;
  const reason =
    typeof payload.reason === 'string' && payload.reason !== '' ? payload.reason.slice(0, 64) : null;
  recordSessionEnded(dataDir, { agent, sessionId, endedAt: now, ...(reason ? { reason } : {}) });
  forgetSessionToolCalls(dataDir, agent, sessionId);
}

/** A turn ended: the tasks the agent said it keeps running (Stop's `background_tasks[]`), when it said. */
export function noteAgentTasks(
  dataDir: string,
  agent: HookAgent,
  sessionId: string,
  now: number,
  payload: HookPayload,
): void {
  const list = taskListOf(agent, sessionId, now, payload);
  if (list) recordAgentTasks(dataDir, list);
}

/** Names one tool call across its before- and after-tool events. */
export function callIdOf(p: HookPayload): string {
  return typeof p.tool_use_id === 'string' && p.tool_use_id !== ''
    ? p.tool_use_id
    : `${String(p.tool_name)}\0${JSON.stringify(p.tool_input ?? null)}`;
}
