import type { GroupView } from '../../../shared/model';
import type { AgentMatcher } from '../analysis/agent-matcher';
import type { ProcessRecord } from '../model/process-record';
import { isShellName } from '../../../shared/shells';
import { commandInsideEval, commandInsideGeminiScript } from './tool-call-command';

/**
 * With the tool-call shell gone, the command it ran as a leftover that is the shell's own fork still
 * shows it (`until false; do :; done &` runs in a subshell with the wrapper's command line). Only an
 * agent's recognised wrapper counts: any `bash -c …` in the group may be a command the call started.
 */
export function forkedWrapperCommand(
  g: GroupView,
  byPid: ReadonlyMap<number, ProcessRecord>,
  matcher: AgentMatcher,
): string | null {
  for (const p of g.processes) {
    const r = byPid.get(p.pid);
    if (!r || matcher.toolCallOf(r.argv) === null) continue;
    const inside = wrappedCommand(r, matcher);
    if (inside !== null) return inside;
  }
  return null;
}

/** The command a tool-call shell runs: Claude's `eval '…'`, Gemini CLI's script, else a shell's `-c` argument. */
export function wrappedCommand(leader: ProcessRecord, matcher: AgentMatcher): string | null {
  const argv = leader.argv;
  if (matcher.toolCallOf(argv) !== null) {
    const inside =
      commandInsideEval(argv.join(' ')) ?? commandInsideGeminiScript(argv[argv.length - 1] ?? '');
    if (inside !== null) return inside;
  }
  if (argv.length < 3 || !isShellName(argv[0]!)) return null;
  const flag = argv.findIndex((a, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(a));
  return flag > 0 && flag + 1 < argv.length ? argv[flag + 1]! : null;
}
