import { HOOK_TOKEN_HEADER, hookUrl } from '../../main/core/hooks-setup/hook-endpoint';
import { loopbackPost } from './loopback-post';
import { killGroup } from './populations';
import { processCpuMs } from './process-cpu';
import { expectNote, hookPayload, toolShell } from './tool-call';

/**
 * One tool call as Claude Code makes it with an http hook: a shell that leaves `sleep` behind, then
 * PostToolUse posted to the running service (duration_ms as Claude Code sends it: how long the tool
 * ran, up to the hook) over HTTP/1.1 as Claude Code posts it (loopback-post.ts). Throws unless the answer names the leftover; the leftover's group is removed.
 * Resolves to what the agent waited (ms) and the service process's CPU for the answer (ms).
 */
export async function httpHookCall(
  server: { pid: number; port: number; token: string },
  session: string,
  markers: Record<string, string>,
  call: number,
): Promise<{ waitMs: number; cpuMs: number }> {
  const began = performance.now();
  const tool = await toolShell(markers);
  const cpu = processCpuMs(server.pid);
  const t = performance.now();
  const res = await loopbackPost(
    hookUrl(server.port, 'claude-code', 'PostToolUse'),
    { [HOOK_TOKEN_HEADER]: server.token, 'content-type': 'application/json' },
    hookPayload(session, call, 'PostToolUse', Math.ceil(t - began)),
  );
  const text = res.text;
  const waitMs = performance.now() - t;
  const cpuMs = processCpuMs(server.pid) - cpu;
  expectNote(text, tool.leftover, `the http hook, call ${call} (status ${res.status})`);
  killGroup(tool.pgid);
  return { waitMs, cpuMs };
}
