// The command that matters in a process's command line. Agents run each tool call through a
// wrapper shell; the user's command is buried in it:
//   /bin/bash -c source /home/u/.claude/shell-snapshots/snapshot-bash-1.sh && eval 'npm run dev' \< /dev/null && pwd -P >| /tmp/claude-1-cwd
// The wrapper is recognised by its `eval '<cmd>'` after a `source …/shell-snapshots/…` (Claude Code)
// inside a `-c` shell; anything else is returned as it is.

import { isShellName } from '../shells';

/** Undoes one level of single-quote shell quoting: 'a'\''b' → a'b. */
function unquoteSingle(text: string): { value: string; rest: string } | null {
  let value = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0) return null;
      value += text.slice(i + 1, close);
      i = close + 1;
    } else if (text.startsWith("\\'", i)) {
      value += "'";
      i += 2;
    } else break;
  }
  return i === 0 ? null : { value, rest: text.slice(i) };
}

function evalArgument(script: string): string | null {
  const at = script.indexOf("eval '");
  if (at < 0) return null;
  const parsed = unquoteSingle(script.slice(at + 5));
  return parsed ? parsed.value.trim() : null;
}

/** The script of `sh -c <script>` / `bash -lc <script>`, when the command line is one. */
function shellScript(command: string): string | null {
  const match = /^(\S+)\s+(?:-[a-z]*c)\s+([\s\S]*)$/.exec(command.trim());
  if (!match || !isShellName(match[1]!)) return null;
  return match[2]!;
}

/** The user's command inside an agent's wrapper shell; the command line itself otherwise. */
export function commandThatMatters(command: string): string {
  // The wrapper's script may come without its shell too (a tool call's command as a transcript holds it).
  const script = shellScript(command) ?? (/^source\s/.test(command.trim()) ? command.trim() : null);
  if (script === null) return command;
  if (/shell-snapshots\//.test(script) || /^source\s/.test(script)) {
    const inner = evalArgument(script);
    if (inner) return inner;
  }
  return command;
}
